// A fake OpenAI-compatible provider: a real HTTP server on 127.0.0.1 speaking the chat-completions protocol at
// `/v1/chat/completions`, scripted per test. Every request it receives is kept (headers and JSON body).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

export interface ProviderMessage { role: 'system' | 'user' | 'assistant', content: string }

export interface ProviderRequest {
  path: string
  headers: IncomingHttpHeaders
  body: { model: string, messages: ProviderMessage[], response_format?: { type: string }, temperature?: number, [key: string]: unknown }
}

export type ProviderReply =
  | { status?: number, json?: unknown, text?: string, headers?: Record<string, string>, delayMs?: number }
  /** Never answers (the connection stays open until the client gives up or the test ends). */
  | { hang: true }

export type Scripted = ProviderReply | ((request: ProviderRequest) => ProviderReply | Promise<ProviderReply>)

export interface FakeProvider {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  url: string
  /** Every request received, in order. */
  requests: ProviderRequest[]
  /** Replies for the next requests, in order; when they run out, `fallback` answers. */
  script: (...replies: Scripted[]) => void
  fallback: Scripted
  /** The environment that points the app at this provider. */
  env: (extra?: Record<string, string>) => Record<string, string>
}

export const TEST_MODEL = 'test-chef-1'
export const TEST_API_KEY = 'sk-test-secret-key'

/** A chat-completion answer whose message content is `content` (objects are sent as JSON text). */
export function completion (content: string | object, usage = { prompt_tokens: 120, completion_tokens: 80 }): ProviderReply {
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: TEST_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) }, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
    }
  }
}

/** A recipe as the system prompt asks for it; `overrides` replace top-level keys. */
export function recipeJson (overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Tomato Basil Pasta',
    description: 'A quick weeknight pasta.',
    type: 'food',
    cuisine: 'Italian',
    difficulty: 'easy',
    servings: 2,
    prepTime: 10,
    cookTime: 15,
    ingredients: [
      { name: 'spaghetti', quantity: 200, unit: 'g', note: null },
      { name: 'cherry tomatoes', quantity: 250, unit: 'g', note: 'halved' },
      { name: 'fresh basil', quantity: 1, unit: 'handful', note: null },
      { name: 'olive oil', quantity: 2, unit: 'tbsp', note: null },
      '2 cloves garlic, sliced'
    ],
    instructions: ['Boil the spaghetti in salted water.', { text: 'Fry the garlic in the oil, add the tomatoes.' }, 'Toss with the pasta and basil.'],
    tags: ['pasta', 'Quick'],
    ...overrides
  }
}

/** A recipe reply whose ingredients are exactly `names` (each with a quantity), for grounding tests. */
export function recipeWith (names: string[], overrides: Record<string, unknown> = {}): ProviderReply {
  return completion(recipeJson({ ingredients: names.map(name => ({ name, quantity: 1, unit: null, note: null })), ...overrides }))
}

/** The last user message of a request (the prompt, or a repair/grounding follow-up). */
export const lastUserMessage = (request: ProviderRequest) => [...request.body.messages].reverse().find(m => m.role === 'user')?.content ?? ''

export async function fakeProvider (t: Test, options: { fallback?: Scripted } = {}): Promise<FakeProvider> {
  const queue: Scripted[] = []
  const requests: ProviderRequest[] = []
  const provider: FakeProvider = {
    url: '',
    requests,
    script: (...replies) => { queue.push(...replies) },
    fallback: options.fallback ?? completion(recipeJson()),
    env: (extra = {}) => ({ AI_BASE_URL: provider.url, AI_API_KEY: TEST_API_KEY, AI_MODEL: TEST_MODEL, ...extra })
  }

  const send = (res: ServerResponse, reply: Exclude<ProviderReply, { hang: true }>) => {
    const body = reply.text ?? JSON.stringify(reply.json ?? {})
    res.writeHead(reply.status ?? 200, { 'content-type': reply.text != null ? 'text/plain' : 'application/json', ...reply.headers })
    res.end(body)
  }

  const answer = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      return
    }
    const request: ProviderRequest = { path: req.url, headers: req.headers, body: JSON.parse(body) }
    requests.push(request)
    const next = queue.shift() ?? provider.fallback
    const reply = typeof next === 'function' ? await next(request) : next
    if ('hang' in reply) return
    if (reply.delayMs != null) await new Promise(resolve => setTimeout(resolve, reply.delayMs))
    if (!res.destroyed) send(res, reply)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      answer(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => { res.destroy(err as Error) })
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return provider
}
