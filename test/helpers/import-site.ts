// A loopback web site for the recipe-import tests, one per test file. It listens before the file's apps are built, so
// that they can allow exactly its origin (IMPORT_ALLOW_ORIGINS: loopback is reachable for that origin and no other);
// each test serves its own pages on it.
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import tap, { type Test } from 'tap'

export interface ImportSite {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** The setting of an app that may import from this site. */
  env: { IMPORT_ALLOW_ORIGINS: string }
  /** Answers with `handler` until the test ends (404 otherwise). */
  use: (t: Test, handler: RequestListener) => void
}

const notFound: RequestListener = (_req, res) => { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found') }

export async function importSite (): Promise<ImportSite> {
  let handler = notFound
  const server = createServer((req, res) => { handler(req, res) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  tap.teardown(async () => {
    server.closeAllConnections()
    await new Promise(resolve => server.close(resolve))
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    env: { IMPORT_ALLOW_ORIGINS: origin },
    use: (t, next) => {
      handler = next
      t.teardown(() => {
        if (handler === next) handler = notFound
        server.closeAllConnections()
      })
    }
  }
}
