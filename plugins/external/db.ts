// PostgreSQL through postgres.js: one pool per instance, every query a tagged template (prepared automatically).
// Columns arrive camelCased (`author_id` -> `authorId`) so rows match the Drizzle table types (`$inferSelect`).
import type { ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import postgres from 'postgres'
import { RequestAbandoned } from '../../lib/errors.js'
import { scope, type Scope } from '../../lib/request-scope.js'

/**
 * A database handle: the pool, or the transaction a service opened. Repositories take one on every method, so the
 * caller decides what commits together.
 */
export type Db = postgres.Sql

/** A value for a json/jsonb column (postgres.js's JSONValue type does not admit interfaces such as our views). */
export const json = (db: Db, value: unknown) => db.json(value as postgres.JSONValue)

declare module 'fastify' {
  interface FastifyInstance {
    /** The pool: queries outside any transaction. */
    db: Db
    /** Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. */
    transaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>
  }
}

/** What postgres.js's Query carries that the guard below uses (internal to postgres.js 3, stable across its releases). */
interface PendingStatement {
  handler: ((query: PendingStatement) => void) & { debug?: unknown }
  resolve: (value: unknown) => void
  reject: (reason: unknown) => void
  /** The backend it was sent to: set once it is written to a connection (possibly behind others, pipelined). */
  state: unknown
  /** True once the statement is the one its connection runs. */
  active: boolean
  tagged: boolean
  strings: string[]
  args: unknown[]
  options: Record<string, unknown>
}

/**
 * Turns a statement that was never sent into `select 1`, which runs when its turn comes and answers nobody. Removing
 * it from postgres.js's queues is not safe (a connection opening with it as its first query would never be handed
 * back), nor is postgres.js's cancel, which signals the backend, not the statement: by the time the signal arrives,
 * the backend may run the next statement of its pipeline, someone else's.
 */
function neuter (statement: PendingStatement): void {
  statement.tagged = false
  statement.strings = ['select 1']
  statement.args = []
  statement.options = { ...statement.options, prepare: false, simple: true }
}

/** SQLSTATE 57014, as PostgreSQL reports a cancelled statement: lib/error-body.ts answers 503 with Retry-After. */
function poolWaitExceeded (waitMs: number): Error {
  return Object.assign(new Error(`no database connection within ${waitMs} ms`), { name: 'PostgresError', code: '57014' })
}

/**
 * The pool with two bounds postgres.js lacks. A statement still waiting for a connection after `poolWaitMs` (every
 * connection busy or blocked, or the database unreachable and postgres.js reconnecting with a backoff up to 20 s)
 * fails with 57014 and never runs; so does one of a request whose client has gone. A statement already sent (queued
 * on a connection behind another) is left to finish: its wait is bounded by the lock and statement timeouts of the
 * one ahead, and its caller learns what really happened. Transactions are bounded in `transaction` below.
 */
function guardedPool (sql: postgres.Sql, poolWaitMs: number): postgres.Sql {
  /** Bounds the wait of a statement no connection took yet. */
  function boundWait (pending: PendingStatement, signal: AbortSignal | undefined): void {
    const drop = (reason: Error): void => {
      if (pending.state != null) return
      pending.reject(reason)
      neuter(pending)
    }
    const timer = setTimeout(() => { drop(poolWaitExceeded(poolWaitMs)) }, poolWaitMs)
    const abandon = (): void => { drop(new RequestAbandoned()) }
    signal?.addEventListener('abort', abandon, { once: true })
    const settle = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', abandon)
    }
    const { resolve, reject } = pending
    pending.resolve = value => { settle(); resolve(value) }
    pending.reject = reason => { settle(); reject(reason) }
  }

  function watch<T> (query: T): T {
    const statement = query as unknown as PendingStatement
    // Fragments and identifiers (`sql(row)`, `sql('name')`) are not statements.
    if (typeof statement?.handler !== 'function' || !Array.isArray(statement.strings)) return query
    const execute = statement.handler
    const handler: PendingStatement['handler'] = pending => {
      const current = scope.getStore()
      if (current?.gone === true) {
        pending.reject(new RequestAbandoned())
        return
      }
      execute(pending)
      // Most statements are sent at once (to a free connection, or pipelined behind another): nothing to bound here.
      if (pending.state == null) boundWait(pending, current?.signal)
    }
    handler.debug = execute.debug
    statement.handler = handler
    return query
  }
  return new Proxy(sql, {
    apply: (target, self, args: Parameters<postgres.Sql>) => watch(Reflect.apply(target, self, args)),
    get (target, property, receiver) {
      if (property !== 'unsafe') return Reflect.get(target, property, receiver)
      return (...args: Parameters<postgres.Sql['unsafe']>) => watch(target.unsafe(...args))
    }
  })
}

/**
 * A request's scope: the client has gone when its connection closed before the answer was complete. The signal is
 * made when first asked for (a statement waiting for a connection, a transaction, an outside fetch), never for a probe
 * or an answer from a cache.
 */
class RequestScope implements Scope {
  #controller: AbortController | undefined
  #gone = false

  constructor (response: ServerResponse) {
    // writableEnded, not writableFinished: light-my-request (inject) never finishes a response it has ended.
    // A listener, not the response kept to be asked later: measured, keeping it cost /healthz 6 µs of CPU a request.
    response.once('close', () => {
      if (response.writableEnded) return
      this.#gone = true
      this.#controller?.abort()
    })
  }

  get gone (): boolean {
    return this.#gone
  }

  get signal (): AbortSignal {
    if (this.#controller == null) {
      this.#controller = new AbortController()
      if (this.#gone) this.#controller.abort()
    }
    return this.#controller.signal
  }
}

export default fp(async fastify => {
  const { databaseUrl, dbPoolMax, dbTimeouts } = fastify.config
  if (databaseUrl == null) throw new Error('databaseUrl must be resolved before the app is built')
  const sql = postgres(databaseUrl, {
    max: dbPoolMax,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    // Only column names: json values keep the keys clients sent.
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    // Every statement is bounded: a locked table or a runaway query answers 503 instead of holding the request.
    connection: {
      application_name: 'recipe-platform',
      TimeZone: 'UTC',
      statement_timeout: dbTimeouts.statementMs,
      lock_timeout: dbTimeouts.lockMs
    }
  })
  const pool = guardedPool(sql, dbTimeouts.poolWaitMs)
  fastify.decorate('db', pool)
  fastify.decorate('transaction', async <T>(work: (tx: Db) => Promise<T>): Promise<T> => {
    const current: Scope | undefined = scope.getStore()
    if (current?.gone === true) throw new RequestAbandoned()
    // `begin` waits for a connection of its own, out of the guard's sight: the same bound, kept here. A transaction
    // that gets its connection after the caller gave up rolls back before its work starts.
    let abandoned = false
    let timer: NodeJS.Timeout | undefined
    let giveUp: (reason: Error) => void = () => {}
    const expired = new Promise<never>((_resolve, reject) => {
      giveUp = reason => { abandoned = true; reject(reason) }
      timer = setTimeout(() => { giveUp(poolWaitExceeded(dbTimeouts.poolWaitMs)) }, dbTimeouts.poolWaitMs)
    })
    const onAbort = (): void => { giveUp(new RequestAbandoned()) }
    current?.signal?.addEventListener('abort', onAbort, { once: true })
    // postgres.js types a transaction as a narrower `TransactionSql`; for queries it is the same tagged template.
    const done = sql.begin(async tx => {
      clearTimeout(timer)
      current?.signal?.removeEventListener('abort', onAbort)
      if (abandoned) throw new RequestAbandoned()
      // Jobs (deletions of large accounts, digests) get longer than a request's statements.
      if (current?.job === true) await tx.unsafe(`set local statement_timeout = ${dbTimeouts.jobStatementMs}`)
      return await work(tx as unknown as Db)
    }) as Promise<T>
    done.catch(() => {})
    try {
      return await Promise.race([done, expired])
    } finally {
      clearTimeout(timer)
      current?.signal?.removeEventListener('abort', onAbort)
    }
  })

  // Each request runs in a scope whose signal aborts when its client disconnects before the answer: statements not yet
  // started are then never sent (work nobody waits for, such as a second deletion request a retry already made).
  // Entered again after the body is parsed: parsing continues in the socket's events, outside the first entry.
  const scopes = new WeakMap<object, Scope>()
  fastify.addHook('onRequest', (request, reply, done) => {
    const requestScope = new RequestScope(reply.raw)
    scopes.set(request, requestScope)
    scope.run(requestScope, done)
  })
  fastify.addHook('preValidation', (request, _reply, done) => {
    const requestScope = scopes.get(request)
    if (requestScope == null || scope.getStore() === requestScope) done()
    else scope.run(requestScope, done)
  })
  fastify.addHook('onClose', async () => { await sql.end({ timeout: 5 }) })
}, { name: 'db' })
