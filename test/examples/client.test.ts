// The consumer test: types generated from the served OpenAPI document with openapi-typescript, examples/client.ts
// compiled against them with `tsc --strict` and run against a listening server. A document change that breaks
// such clients (a renamed field, a parameter turned required, a lost type) fails here.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import t from 'tap'
import { build } from '../helper.js'

const run = promisify(execFile)

t.test('a client generated from the document compiles strictly and works as written', async t => {
  const app = await build(t)
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })

  const document = await (await fetch(`${baseUrl}/api/docs/json`)).text()
  const types = astToString(await openapiTS(document))
  t.match(types, /"recipes\.list": \{/, 'operations are named')
  await mkdir('examples/generated', { recursive: true })
  await writeFile('examples/generated/api.d.ts', types)

  const compiled = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'examples']).then(() => 0, (err: { code: number, stdout: string }) => {
    t.comment(err.stdout)
    return err.code
  })
  t.equal(compiled, 0, 'examples/client.ts compiles with tsc --strict, no casts')

  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/client.ts'], { env: { ...process.env, API_URL: baseUrl } })
  t.match(stdout, /search found \d+ recipe/, 'searched')
  t.match(stdout, /liked: true, likes 1/, 'liked')
  t.match(stdout, /notifications: .*like/, 'the author was notified')
  t.match(stdout, /unknown recipe: 404 Recipe not found/, 'errors are typed')
  t.match(stdout, /example client: done/)
})

t.test('npm run openapi:export writes the document offline, with the first-admin settings set too', async t => {
  const out = `${await mkdtemp(path.join(tmpdir(), 'recipes-openapi-'))}/openapi.json`
  await run(process.execPath, ['--import', 'tsx', 'scripts/openapi-export.ts', out], {
    env: { ...process.env, DATABASE_URL: undefined, ADMIN_BOOTSTRAP_EMAIL: 'first@admin.example', ADMIN_BOOTSTRAP_USERNAME: 'first-admin', ADMIN_BOOTSTRAP_PASSWORD: 'a-long-enough-password-1' }
  })
  const document = JSON.parse(await readFile(out, 'utf8'))
  t.match(document, { openapi: /^3\./, paths: { '/api/recipes': Object } }, 'the whole document, no database needed')
})
