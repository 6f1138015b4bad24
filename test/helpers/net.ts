import { createServer, type AddressInfo } from 'node:net'

/** A port on 127.0.0.1 that was free a moment ago (nothing listens on it when this returns). */
export async function freePort (): Promise<number> {
  const probe = createServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>(resolve => probe.close(() => { resolve() }))
  return port
}
