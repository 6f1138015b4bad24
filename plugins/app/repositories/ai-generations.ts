// The AI generation log (ai_generations): one row per generation request, claimed `pending` before anything is
// spent (one identical request in flight per user: the partial unique index on user and request key), finished with
// its outcome; the caller's history, newest first.
import { createId } from '@paralleldrive/cuid2'
import fp from 'fastify-plugin'
import type { aiGenerations } from '../../../db/schema/index.js'
import type { AiGenerationRequestView, AiGenerationView } from '../../../schemas/ai-recipes.js'
import { json, type Db } from '../../external/db.js'
import type { Page } from './recipes.js'
import type { Counted } from './sql.js'

declare module 'fastify' {
  interface FastifyInstance {
    aiGenerationsRepository: typeof aiGenerationsRepository
  }
}

type GenerationRow = typeof aiGenerations.$inferSelect
export type AiGenerationStatus = GenerationRow['status']

export type NewGeneration = Pick<typeof aiGenerations.$inferInsert, 'userId' | 'request' | 'prompt' | 'model' | 'requestKey'>

export interface GenerationOutcome {
  status: Exclude<AiGenerationStatus, 'pending'>
  error?: string | null
  recipeId?: string | null
  model?: string | null
  promptTokens?: number | null
  completionTokens?: number | null
  totalTokens?: number | null
  attempts?: number
  latencyMs?: number | null
}

type Generation = typeof aiGenerations.$inferSelect

/** A finished generation a repeated request may answer with (its recipe still exists). */
export type FinishedGeneration = Pick<Generation, 'id' | 'request'> & { recipeId: NonNullable<Generation['recipeId']> }

/** An allowance a generation held: the user and the month it was spent from. */
export type HeldAllowance = Pick<Generation, 'userId'> & { allowancePeriod: NonNullable<Generation['allowancePeriod']> }

const text = (value: unknown) => typeof value === 'string' ? value : undefined
const texts = (value: unknown) => Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined

/** The stored request, read field by field (jsonb written by this service, but never trusted blindly). */
function requestView (value: Record<string, unknown>): AiGenerationRequestView {
  const type = value.type === 'food' || value.type === 'drink' ? value.type : undefined
  const servings = typeof value.servings === 'number' && Number.isInteger(value.servings) ? value.servings : undefined
  const view: AiGenerationRequestView = {
    prompt: text(value.prompt),
    ingredients: texts(value.ingredients),
    cuisine: text(value.cuisine),
    type,
    dietary: texts(value.dietary),
    servings
  }
  return Object.fromEntries(Object.entries(view).filter(([, v]) => v !== undefined))
}

type HistoryRow = Pick<GenerationRow, 'id' | 'status' | 'prompt' | 'request' | 'model' | 'promptTokens' | 'completionTokens' |
  'totalTokens' | 'attempts' | 'latencyMs' | 'recipeId' | 'error' | 'createdAt' | 'finishedAt'>

const view = (row: HistoryRow): AiGenerationView => ({
  id: row.id,
  status: row.status,
  prompt: row.prompt,
  request: requestView(row.request),
  model: row.model,
  tokens: { prompt: row.promptTokens, completion: row.completionTokens, total: row.totalTokens },
  attempts: row.attempts,
  latencyMs: row.latencyMs,
  recipeId: row.recipeId,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null
})

export const aiGenerationsRepository = {
  /**
   * Claims the request: a `pending` row, or null when an identical one (same user and key) is pending (the caller
   * first releases abandoned ones, `abandon`).
   */
  async start (db: Db, entry: NewGeneration): Promise<string | null> {
    const [row] = await db<Array<Pick<Generation, 'id'>>>`
      insert into ai_generations ${db({ id: createId(), ...entry, request: json(db, entry.request), status: 'pending' })}
      on conflict (user_id, request_key) where status = 'pending' do nothing
      returning id`
    return row?.id ?? null
  },

  /** A generation that never got to run (refused before it was claimed, e.g. an identical one in progress). */
  async refused (db: Db, entry: NewGeneration, error: string): Promise<string> {
    const [row] = await db<Array<Pick<Generation, 'id'>>>`
      insert into ai_generations ${db({
        id: createId(), ...entry, request: json(db, entry.request), status: 'refused', error, attempts: 0, latencyMs: 0, finishedAt: new Date()
      })} returning id`
    return row.id
  },

  /**
   * Marks pending generations older than `staleSeconds` failed (their process died: they block nobody any more) and
   * returns the allowance each still held, to be given back in the same transaction. Only `scope`'s when given.
   */
  async abandon (db: Db, staleSeconds: number, scope?: { userId: string, requestKey: string }): Promise<HeldAllowance[]> {
    const mine = scope == null ? db`true` : db`user_id = ${scope.userId} and request_key = ${scope.requestKey}`
    return await db<Array<Pick<Generation, 'userId' | 'allowancePeriod'>>>`
      with gone as (
        select id, allowance_period from ai_generations
        where status = 'pending' and created_at < now() - make_interval(secs => ${staleSeconds}) and ${mine}
        for update skip locked)
      update ai_generations g set status = 'failed', error = 'Abandoned: the generation never finished', finished_at = now(),
        allowance_period = null
      from gone where g.id = gone.id
      returning g.user_id, gone.allowance_period`
      .then(rows => rows.filter((row): row is HeldAllowance => row.allowancePeriod != null))
  },

  /** Notes the month whose allowance the generation now holds (in the transaction that spent it). */
  async holdAllowance (db: Db, id: string, period: string): Promise<void> {
    await db`update ai_generations set allowance_period = ${period} where id = ${id}`
  },

  /** Lets go of the held allowance; true when this call did (so it is given back exactly once). */
  async releaseAllowance (db: Db, id: string): Promise<boolean> {
    const released = await db`update ai_generations set allowance_period = null where id = ${id} and allowance_period is not null`
    return released.count > 0
  },

  /** Records the outcome of a pending generation (once: a finished row is left as it is). */
  async finish (db: Db, id: string, outcome: GenerationOutcome): Promise<void> {
    await db`update ai_generations set
        status = ${outcome.status},
        error = ${outcome.error ?? null},
        recipe_id = ${outcome.recipeId ?? null},
        model = coalesce(${outcome.model ?? null}, model),
        prompt_tokens = ${outcome.promptTokens ?? null},
        completion_tokens = ${outcome.completionTokens ?? null},
        total_tokens = ${outcome.totalTokens ?? null},
        attempts = ${outcome.attempts ?? 0},
        latency_ms = ${outcome.latencyMs ?? null},
        finished_at = now()
      where id = ${id} and status = 'pending'`
  },

  /** Removes a claim that turned out to be a repeat of a finished generation (the repeat is not a generation). */
  async discard (db: Db, id: string): Promise<void> {
    await db`delete from ai_generations where id = ${id} and status = 'pending'`
  },

  /**
   * The newest successful generation of this user and key within `withinSeconds` whose recipe still exists, other than
   * `exceptId`.
   */
  async finishedFor (db: Db, userId: string, requestKey: string, withinSeconds: number, exceptId: string): Promise<FinishedGeneration | null> {
    const [row] = await db<FinishedGeneration[]>`
      select g.id, g.request, g.recipe_id from ai_generations g
      where g.user_id = ${userId} and g.request_key = ${requestKey} and g.status = 'success' and g.id <> ${exceptId}
        and g.recipe_id is not null and g.created_at > now() - make_interval(secs => ${withinSeconds})
      order by g.created_at desc, g.id desc limit 1`
    return row ?? null
  },

  /** A page of the user's generations, newest first; `hasNext` from one row past the page, the count exact. */
  async page (db: Db, userId: string, pageNo: number, limit: number): Promise<Page<AiGenerationView> & { hasNext: boolean }> {
    const [rows, total] = await Promise.all([
      db<HistoryRow[]>`
        select id, status, prompt, request, model, prompt_tokens, completion_tokens, total_tokens, attempts, latency_ms,
          recipe_id, error, created_at, finished_at
        from ai_generations where user_id = ${userId}
        order by created_at desc, id desc limit ${limit + 1} offset ${(pageNo - 1) * limit}`,
      aiGenerationsRepository.countByUser(db, userId)
    ])
    return { items: rows.slice(0, limit).map(view), total, hasNext: rows.length > limit }
  },

  async countByUser (db: Db, userId: string): Promise<number> {
    const [{ n }] = await db<Array<Counted<'n'>>>`select count(*)::int as n from ai_generations where user_id = ${userId}`
    return n
  }
}

export default fp(async fastify => {
  fastify.decorate('aiGenerationsRepository', aiGenerationsRepository)
}, { name: 'ai-generations-repository' })
