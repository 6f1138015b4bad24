// `npm run openapi:export [file]`: writes the OpenAPI document without starting a server or a database.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import app from '../app.js'
import { loadConfig } from '../config.js'
import { serverOptions } from '../server-options.js'

// No database is reached: settings that would write one (the first admin) are left out.
const { ADMIN_BOOTSTRAP_EMAIL: _email, ADMIN_BOOTSTRAP_USERNAME: _username, ADMIN_BOOTSTRAP_PASSWORD: _password, ...env } = process.env
const config = await loadConfig({ ...env, LOG_LEVEL: 'silent', DATABASE_URL: env.DATABASE_URL ?? 'postgres://unused@127.0.0.1:1/unused' })
const instance = Fastify(serverOptions(config))
await instance.register(fp(app), { config, offline: true })
await instance.ready()
const document = JSON.stringify(instance.swagger(), null, 2)
await instance.close()
const out = process.argv[2]
if (out == null) console.log(document)
else {
  await mkdir(path.dirname(out), { recursive: true })
  await writeFile(out, document + '\n')
}
