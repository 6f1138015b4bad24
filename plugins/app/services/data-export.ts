// The GDPR export: everything a user owns as one JSON document, written piece by piece as the client reads it.
// All reads run in one READ ONLY REPEATABLE READ transaction, so the document is a consistent snapshot; each list is a
// cursor (repositories/data-export.ts), so memory holds one batch whatever the size of the account. The transaction
// lives on a reserved connection inside an async generator: when the client goes away, the stream is destroyed, the
// generator is returned, and its `finally` rolls back and hands the connection back.
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ServiceBusy, UserNotFound } from '../../../lib/errors.js'
import { EXPORT_FORMAT, type ExportMediaRow, type ExportMediaView } from '../../../schemas/gdpr.js'
import type { Db } from '../../external/db.js'
import type { AuthUser } from '../auth.js'
import { chunked } from '../../../lib/chunked.js'

declare module 'fastify' {
  interface FastifyInstance {
    dataExportService: ReturnType<typeof createDataExportService>
  }
}

export const EXPORT_LIMITS = {
  /** Exports a user may start per hour: each reads the whole account. */
  perHour: 5,
  /** An export holds a connection until it ends; one still running after this (a client that stopped reading) is cut off. */
  maxSeconds: 15 * 60
} as const

const RATE_WINDOW_SECONDS = 60 * 60
const SNAPSHOT = 'begin read only isolation level repeatable read'

export interface DataExportDownload {
  /** `recipes-export-<username>-<YYYY-MM-DD>.json` */
  filename: string
  /** The document, UTF-8 JSON. */
  stream: Readable
}

/** Usernames are already [A-Za-z0-9_.-]; anything else is replaced so the name is always safe in a quoted header. */
export function exportFilename (username: string, at: Date): string {
  return `recipes-export-${username.replace(/[^A-Za-z0-9_.-]/g, '-')}-${at.toISOString().slice(0, 10)}.json`
}

const member = (name: string, value: unknown) => `${JSON.stringify(name)}:${JSON.stringify(value)}`

/** `,"name":[item,item...]`, one item at a time. */
async function * list (name: string, items: AsyncIterable<unknown>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`
  let separator = ''
  for await (const item of items) {
    yield separator + JSON.stringify(item)
    separator = ','
  }
  yield ']'
}

export function createDataExportService (fastify: FastifyInstance) {
  const repo = fastify.dataExportRepository
  // Each export holds a pool connection for as long as the client reads: a quarter of the pool at most.
  const maxRunning = Math.max(1, Math.floor(fastify.config.dbPoolMax / 4))
  let running = 0
  const open = new Set<Readable>()

  async function * withUrls (rows: AsyncIterable<ExportMediaRow>): AsyncGenerator<ExportMediaView> {
    for await (const { id, kind, key, ...rest } of rows) yield { id, kind, key, url: fastify.storage.url(key), ...rest }
  }

  /** The lists of the document, in order (queries are lazy: each runs when its turn comes). */
  const lists = (db: Db, userId: string): Array<[string, AsyncIterable<unknown>]> => [
    ['usage', repo.usage(db, userId)],
    ['pushSubscriptions', repo.pushSubscriptions(db, userId)],
    ['recipes', repo.recipes(db, userId)],
    ['comments', repo.comments(db, userId)],
    ['likes', repo.likes(db, userId)],
    ['ratings', repo.ratings(db, userId)],
    ['bookmarks', repo.bookmarks(db, userId)],
    ['collections', repo.collections(db, userId)],
    ['cooked', repo.cooked(db, userId)],
    ['following', repo.following(db, userId)],
    ['followers', repo.followers(db, userId)],
    ['notifications', repo.notifications(db, userId)],
    ['mealPlans', repo.mealPlans(db, userId)],
    ['plannedMeals', repo.plannedMeals(db, userId)],
    ['sharedMealPlans', repo.sharedMealPlans(db, userId)],
    ['groceryLists', repo.groceryLists(db, userId)],
    ['families', repo.families(db, userId)],
    ['media', withUrls(repo.media(db, userId))],
    ['reports', repo.reports(db, userId)],
    ['supportTickets', repo.supportTickets(db, userId)],
    ['ccpaRequests', repo.ccpaRequests(db, userId)],
    ['dataDeletionRequests', repo.dataDeletionRequests(db, userId)],
    ['imports', repo.imports(db, userId)],
    ['aiGenerations', repo.aiGenerations(db, userId)],
    ['emails', repo.emails(db, userId)]
  ]

  async function * document (userId: string): AsyncGenerator<string> {
    const db = await fastify.db.reserve()
    let inTransaction = false
    try {
      await db.unsafe(SNAPSHOT)
      inTransaction = true
      const account = await repo.user(db, userId)
      if (account == null) throw new UserNotFound()
      const [subscription, notificationSettings, pushPreferences, consent] = await Promise.all([
        repo.subscription(db, userId),
        fastify.userService.notificationSettings(userId, db),
        fastify.pushService.preferences(userId, db),
        fastify.consentService.get(userId, db)
      ])
      yield '{' + [
        member('exportedAt', account.exportedAt),
        member('format', EXPORT_FORMAT),
        member('user', account.user),
        member('subscription', subscription),
        member('notificationSettings', notificationSettings),
        member('pushPreferences', pushPreferences),
        member('consent', consent)
      ].join(',')
      for (const [name, items] of lists(db, userId)) yield * list(name, items)
      yield '}'
      await db.unsafe('commit')
      inTransaction = false
    } finally {
      // Also reached when the stream is destroyed mid-document (client gone, time limit, shutdown).
      if (inTransaction) await db.unsafe('rollback').catch((err: unknown) => { fastify.log.warn({ err }, 'data export: rollback failed') })
      db.release()
    }
  }

  /** The user's data as a stream of UTF-8 JSON; nothing is read until the stream is. */
  function stream (userId: string): Readable {
    const readable = Readable.from(chunked(document(userId)), { objectMode: false })
    const deadline = setTimeout(() => readable.destroy(new Error('data export exceeded its time limit')), EXPORT_LIMITS.maxSeconds * 1000)
    deadline.unref()
    open.add(readable)
    readable.once('close', () => {
      clearTimeout(deadline)
      open.delete(readable)
    })
    return readable
  }

  return {
    stream,

    /**
     * An export for the signed-in user: at most EXPORT_LIMITS.perHour an hour (429 beyond, with the seconds left),
     * and at most a quarter of the pool's connections busy with exports at once (503 beyond).
     */
    async export (user: AuthUser): Promise<DataExportDownload> {
      // The slot is taken before the first await, so concurrent requests cannot all pass the check.
      if (running >= maxRunning) throw new ServiceBusy()
      running++
      try {
        await fastify.rateLimits.perUser('gdpr-export', user.id, EXPORT_LIMITS.perHour, RATE_WINDOW_SECONDS)
      } catch (err) {
        running--
        throw err
      }
      const readable = stream(user.id)
      readable.once('close', () => { running-- })
      return { filename: exportFilename(user.username, new Date()), stream: readable }
    },

    /** Ends every export being written: their transactions roll back and their connections return to the pool. */
    closeAll (): void {
      for (const readable of open) readable.destroy()
    }
  }
}

export default fp(async fastify => {
  const service = createDataExportService(fastify)
  fastify.decorate('dataExportService', service)
  // Before the pool ends: a download still being read would otherwise hold its connection until the pool's timeout.
  fastify.addHook('preClose', async () => { service.closeAll() })
}, {
  name: 'data-export-service',
  dependencies: ['data-export-repository', 'consent-service', 'user-service', 'push-service', 'storage', 'cache', 'rate-limit', 'db']
})
