// PostgreSQL LISTEN on one dedicated connection (pool connections come and go), for in-process state that writes on any
// instance must clear (plugins/app/services/recipe-view-cache.ts). Notifications arrive in commit order. While the
// connection is down nothing is heard, so a subscriber is told (`onReset`) when it drops and again once it listens.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import fp from 'fastify-plugin'
import postgres from 'postgres'
import type { Db } from './db.js'

export interface ChannelHandlers {
  /** A notification of the channel (sync tokens excepted). */
  onMessage: (payload: string) => void
  /** The connection dropped or listens again: anything heard before may have been missed since. */
  onReset: () => void
}

export interface Channel {
  /** True while LISTEN holds: every commit's notification reaches onMessage. */
  readonly listening: boolean
  /**
   * Resolves true once every notification committed before the call has reached onMessage (its own notification comes
   * after them: PostgreSQL delivers in commit order); false when not listening, on error or after SYNC_TIMEOUT_MS.
   */
  sync: () => Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Listens on `name` (one channel per call). Offline builds get a channel that never listens. */
    dbChannel: (name: string, handlers: ChannelHandlers) => Channel
  }
}

const SYNC_PREFIX = 'sync:'
const SYNC_TIMEOUT_MS = 2000
const RETRY_MS = { first: 250, max: 5000 }

const NEVER_LISTENING: Channel = { listening: false, sync: async () => false }

export default fp(async (fastify, opts: { offline?: boolean }) => {
  const channels: Array<() => Promise<void>> = []
  fastify.decorate('dbChannel', (name: string, handlers: ChannelHandlers): Channel => {
    if (opts.offline === true) return NEVER_LISTENING
    const channel = listen(fastify.config.databaseUrl!, name, handlers, fastify.db, fastify.log)
    channels.push(channel.close)
    return channel
  })
  fastify.addHook('onClose', async () => { await Promise.all(channels.map(async close => { await close() })) })
}, { name: 'db-channels', dependencies: ['db'] })

function listen (url: string, name: string, handlers: ChannelHandlers, pool: Db, log: FastifyBaseLogger) {
  const instance = randomUUID()
  const waiting = new Map<string, () => void>()
  let listening = false
  let closing = false
  let retryMs = RETRY_MS.first
  let retry: NodeJS.Timeout | undefined
  let tokens = 0

  // Not sql.listen(): after a drop it re-listens once and gives up if that fails, without telling anyone. The
  // connection's own `onnotify` (what sql.listen is built on; missing from the published types) lets a drop be seen.
  const options: postgres.Options<Record<string, never>> & { onnotify: (channel: string, payload: string) => void } = {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 10,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'recipe-platform-listen' },
    onnotify: (channel, payload) => {
      if (channel !== name) return
      if (payload.startsWith(SYNC_PREFIX)) {
        const done = waiting.get(payload)
        if (done != null) done()
        return // another instance's token
      }
      handlers.onMessage(payload)
    },
    onclose: () => {
      if (!listening) return
      listening = false
      handlers.onReset()
      if (!closing) schedule()
    }
  }
  const sql = postgres(url, options)

  function schedule (): void {
    retry = setTimeout(() => { start().catch(() => {}) }, retryMs)
    retry.unref()
    retryMs = Math.min(retryMs * 2, RETRY_MS.max)
  }

  async function start (): Promise<void> {
    try {
      await sql.unsafe(`listen "${name.replace(/"/g, '""')}"`)
      if (closing) return
      listening = true
      retryMs = RETRY_MS.first
      handlers.onReset()
    } catch (err) {
      if (closing) return
      log.warn({ err, channel: name }, 'cannot listen; retrying')
      schedule()
    }
  }
  start().catch(() => {}) // start() reports and retries its own failures

  return {
    get listening () { return listening },
    async sync (): Promise<boolean> {
      if (!listening) return false
      const token = `${SYNC_PREFIX}${instance}:${++tokens}`
      let timer: NodeJS.Timeout | undefined
      const heard = new Promise<boolean>(resolve => {
        waiting.set(token, () => { resolve(true) })
        timer = setTimeout(() => { resolve(false) }, SYNC_TIMEOUT_MS)
      })
      try {
        await pool`select pg_notify(${name}, ${token})`
        return await heard
      } catch {
        return false // the database is down: the caller treats its state as unknown
      } finally {
        clearTimeout(timer)
        waiting.delete(token)
      }
    },
    async close (): Promise<void> {
      closing = true
      clearTimeout(retry)
      listening = false
      await sql.end({ timeout: 5 })
    }
  }
}
