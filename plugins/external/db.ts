// PostgreSQL through postgres.js (prepared statements by default) with Drizzle on top.
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js'
import fp from 'fastify-plugin'
import postgres from 'postgres'
import * as schema from '../../db/schema/index.js'

export type Database = PostgresJsDatabase<typeof schema>
/** A transaction or the database itself: repository methods accept either. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

declare module 'fastify' {
  interface FastifyInstance {
    db: Database
    /** Raw postgres.js client for hot paths and maintenance. */
    sql: postgres.Sql
  }
}

export default fp(async fastify => {
  const { databaseUrl, dbPoolMax } = fastify.config
  if (databaseUrl == null) throw new Error('databaseUrl must be resolved before the app is built')
  const sql = postgres(databaseUrl, {
    max: dbPoolMax,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'recipe-platform' }
  })
  fastify.decorate('sql', sql)
  fastify.decorate('db', drizzle({ client: sql, schema }))
  fastify.addHook('onClose', async () => { await sql.end({ timeout: 5 }) })
}, { name: 'db' })
