// The API as a plugin: it never listens (server.ts and the tests own the process and the instance).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autoload from '@fastify/autoload'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.js'

export interface AppOptions {
  /** Fully resolved configuration; `databaseUrl` is set (server.ts starts the embedded database first). */
  config: Config
  /** Build without opening connections beyond the lazy pool (exporting the OpenAPI document): no job queue. */
  offline?: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

const here = path.dirname(fileURLToPath(import.meta.url))

export default async function app (fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  fastify.decorate('config', opts.config)
  // Infrastructure first (awaited so later passes can rely on its decorators), then app plugins, then routes.
  await fastify.register(autoload, { dir: path.join(here, 'plugins/external'), options: { offline: opts.offline === true } })
  await fastify.register(autoload, { dir: path.join(here, 'plugins/app') })
  await fastify.register(autoload, {
    dir: path.join(here, 'routes'),
    autoHooks: true,
    cascadeHooks: true
  })
}
