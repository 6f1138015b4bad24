// Data deletion (GDPR erasure): a request, a confirmation email and a job that carries it out after the grace period
// (cancellable until then). `account` removes the user and everything they own in one transaction, hands their
// families over and leaves only the request with a masked address and its confirmation email; `data` removes their
// content and keeps the account. Either way what showed them to others goes too (decisions.md, Compliance): mail that
// quoted them (delivered mail keeps only the record of delivery), notifications with them as actor, reports by and
// about them, CCPA requests and support tickets sent with their address.
// Other users' recipe counters are recomputed from the remaining rows, so they stay exact. Stored files go by the
// `storage.remove` job sent in the same transaction. Killed midway, the transaction rolls back and the job runs again.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { DELETE_TYPES } from '../../../db/schema/index.js'
import { DeletionNotCancellable, DeletionRequestNotFound, UserNotFound } from '../../../lib/errors.js'
import { optionalText } from '../../../lib/text.js'
import type { AuthUser } from '../auth.js'
import type { Db } from '../../external/db.js'
import { ACCOUNT_MAIL_KINDS, maskEmail, type DeletionRequestRow } from '../repositories/data-deletion.js'
import type { Page } from '../repositories/recipes.js'

declare module 'fastify' {
  interface FastifyInstance {
    dataDeletionService: ReturnType<typeof createDataDeletionService>
  }
}

export const DELETION_JOB = 'data-deletion.run'
const REMOVE_FILES_JOB = 'storage.remove'
const ERROR_LENGTH = 500

export interface DeletionRequestView {
  id: string
  email: string
  deleteType: typeof DELETE_TYPES[number]
  status: DeletionRequestRow['status']
  reason: string | null
  createdAt: string
  scheduledFor: string
  startedAt: string | null
  completedAt: string | null
  cancelledAt: string | null
}

const iso = (date: Date | null) => date?.toISOString() ?? null

/** The request as its owner sees it; `masked` for the public status route. */
function view (row: DeletionRequestRow, masked: boolean): DeletionRequestView {
  return {
    id: row.id,
    email: masked ? maskEmail(row.email) : row.email,
    deleteType: row.deleteType,
    status: row.status,
    reason: masked ? null : row.reason,
    createdAt: row.createdAt.toISOString(),
    scheduledFor: row.scheduledFor.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    cancelledAt: iso(row.cancelledAt)
  }
}

export function createDataDeletionService (fastify: FastifyInstance) {
  const repo = fastify.dataDeletionRepository

  async function erase (tx: Db, request: DeletionRequestRow, userId: string): Promise<void> {
    const user = await repo.identity(tx, userId)
    if (user == null) return
    const addresses = [...new Set([user.email, request.email])]
    const affected = await repo.recipesCountingUser(tx, userId)
    const [tagIds, keys] = await Promise.all([repo.tagsOfAuthor(tx, userId), repo.mediaKeys(tx, userId)])
    // What shows them to others goes first, while notifications, recipes and comments still say what is theirs.
    await repo.forgetInOthersMail(tx, user)
    await fastify.reportsRepository.removeConcerning(tx, userId)
    await fastify.ccpaRepository.removeOf(tx, userId, addresses)
    await fastify.supportRepository.removeOf(tx, userId, addresses)
    if (request.deleteType === 'account') {
      await repo.handOverFamilies(tx, userId)
      await repo.eraseOwnMail(tx, user, ['data-deletion'])
      await repo.eraseAccount(tx, userId)
      await repo.maskRequestsOf(tx, request.email)
    } else {
      await repo.eraseOwnMail(tx, user, ACCOUNT_MAIL_KINDS)
      await repo.eraseContent(tx, userId)
    }
    await repo.recount(tx, affected)
    await fastify.tagsRepository.removeOrphans(tx, tagIds)
    if (keys.length > 0) await fastify.queue.send(REMOVE_FILES_JOB, { keys }, tx)
  }

  return {
    /** A pending request (201), or the open one when there is one (200); the email and the job commit with it. */
    async request (user: AuthUser, deleteType: DeletionRequestView['deleteType'], reason?: string): Promise<{ created: boolean, request: DeletionRequestView }> {
      return await fastify.transaction(async tx => {
        await fastify.usersRepository.lock(tx, user.id)
        const existing = await repo.open(tx, user.id)
        if (existing != null) return { created: false, request: view(existing, false) }
        const account = await fastify.usersRepository.self(tx, user.id)
        if (account == null) throw new UserNotFound()
        const scheduledFor = new Date(Date.now() + fastify.config.dataDeletionGraceSeconds * 1000)
        const created = await repo.create(tx, { userId: user.id, email: account.email!, deleteType, reason: optionalText(reason), scheduledFor })
        if (created == null) throw new Error('an open deletion request appeared under the user lock')
        await fastify.emailService.dataDeletion(tx, { id: user.id, email: account.email!, username: account.username }, {
          requestId: created.id, deleteType, scheduledFor
        })
        await fastify.queue.send(DELETION_JOB, { requestId: created.id }, tx, { startAfter: scheduledFor })
        return { created: true, request: view(created, false) }
      })
    },

    /** Cancels the caller's pending request; another user's id is RequestNotFound, one already under way 409. */
    async cancel (userId: string, id: string): Promise<DeletionRequestView> {
      return await fastify.transaction(async tx => {
        const row = await repo.lock(tx, id)
        if (row == null || row.userId !== userId) throw new DeletionRequestNotFound()
        if (row.status !== 'pending') throw new DeletionNotCancellable()
        await repo.setStatus(tx, id, 'cancelled')
        return view((await repo.find(tx, id))!, false)
      })
    },

    /** Public by its unguessable id, with the address masked. */
    async status (id: string): Promise<DeletionRequestView> {
      const row = await repo.find(fastify.db, id)
      if (row == null) throw new DeletionRequestNotFound()
      return view(row, true)
    },

    async list (userId: string, page: number, limit: number): Promise<Page<DeletionRequestView>> {
      const { items, total } = await repo.listByUser(fastify.db, userId, page, limit)
      return { items: items.map(row => view(row, false)), total }
    },

    /**
     * Carries the request out (the job's handler): pending -> processing (committed, so the status route shows it),
     * then everything in one transaction -> completed. Cancelled or finished requests are left alone, so running it
     * again is harmless.
     */
    async run (id: string, final = false): Promise<void> {
      const start = await fastify.transaction(async tx => {
        const row = await repo.lock(tx, id)
        if (row == null || (row.status !== 'pending' && row.status !== 'processing')) return null
        if (row.scheduledFor.getTime() > Date.now()) return null // sent early by hand: the scheduled job will come
        await repo.setStatus(tx, id, 'processing')
        return row
      })
      if (start == null) return
      try {
        await fastify.transaction(async tx => {
          const row = await repo.lock(tx, id)
          if (row == null || row.status !== 'processing') return
          if (row.userId != null) await erase(tx, row, row.userId)
          await repo.setStatus(tx, id, 'completed')
        })
      } catch (err) {
        fastify.log.error({ err, requestId: id, final }, 'data deletion failed')
        if (!final) throw err
        const message = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_LENGTH)
        await repo.setStatus(fastify.db, id, 'failed', message)
        return
      }
      if (start.userId != null) await fastify.invalidateAuthState(start.userId)
    }
  }
}

export default fp(async fastify => {
  const service = createDataDeletionService(fastify)
  fastify.decorate('dataDeletionService', service)
  await fastify.queue.work<{ requestId: string }>(DELETION_JOB, async ({ requestId }, job) => { await service.run(requestId, job.final) })
}, {
  name: 'data-deletion-service',
  dependencies: [
    'data-deletion-repository', 'users-repository', 'tags-repository', 'reports-repository', 'ccpa-repository', 'support-repository',
    'email-service', 'queue', 'auth', 'db'
  ]
})
