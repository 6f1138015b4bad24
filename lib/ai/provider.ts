// An OpenAI-compatible chat-completions client over plain fetch (undici): OpenAI, Ollama, vLLM, llama.cpp's server,
// LiteLLM and the like. `POST {baseUrl}/chat/completions`: the base URL is used as given, with or without a version
// path (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`), and `/chat/completions` appended to it.
//
// One call is one HTTP request: nothing is retried here. A 429 or 5xx from the provider, a timeout or a broken body
// becomes an AiProviderError at once, so the caller can answer 502/503/504 quickly instead of holding the client
// while the provider recovers (the caller decides; the AI service does not retry these either).
// Only the model's reply retries (a repair or grounding retry), and those are the caller's choice too.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface TokenUsage { promptTokens: number, completionTokens: number, totalTokens: number }

export interface Completion {
  /** The assistant message's text; null when the model sent none. */
  content: string | null
  /** Set when the model declined (OpenAI's `message.refusal`). */
  refusal: string | null
  /** Token counts as the provider reported them; null when it reported none. */
  usage: TokenUsage | null
  /** The model that answered, as the provider names it. */
  model: string | null
  finishReason: string | null
}

export interface ChatClientOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>` when set (local servers usually need none). */
  apiKey?: string
  model: string
  /** Whole request, headers and body, in milliseconds; default 60 s. */
  timeoutMs?: number
  /** Largest response body read, in bytes; default 1 MB. */
  maxResponseBytes?: number
  temperature?: number
}

export type AiProviderErrorKind =
  /** The timeout passed before the whole answer arrived. */
  | 'timeout'
  /** The caller's signal aborted the request (the client went away). */
  | 'aborted'
  /** 429 from the provider. */
  | 'rate-limited'
  /** 5xx from the provider. */
  | 'unavailable'
  /** Any other non-2xx status (401 bad key, 404 unknown model, 400...). */
  | 'bad-status'
  /** The body is not a chat completion (not JSON, no choices...). */
  | 'invalid-response'
  /** The body is larger than `maxResponseBytes`. */
  | 'too-large'
  /** No HTTP answer at all (refused connection, DNS, TLS, a redirect). */
  | 'network'

export class AiProviderError extends Error {
  override name = 'AiProviderError'
  readonly kind: AiProviderErrorKind
  /** The provider's HTTP status, when it answered. */
  readonly status?: number
  /** Seconds the provider asked to wait (its Retry-After), when it gave them. */
  readonly retryAfter?: number

  constructor (kind: AiProviderErrorKind, message: string, options: { status?: number, retryAfter?: number, cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.kind = kind
    this.status = options.status
    this.retryAfter = options.retryAfter
  }
}

export const DEFAULT_TIMEOUT_MS = 60_000
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024

/** The completions endpoint of a base URL: trailing slashes dropped, `/chat/completions` appended. */
export function completionsUrl (baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`
}

/** Retry-After in seconds (delta form or an HTTP date), bounded to an hour; undefined when absent or unreadable. */
function retryAfterSeconds (header: string | null): number | undefined {
  if (header == null || header.trim() === '') return undefined
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Math.ceil((Date.parse(header) - Date.now()) / 1000)
  if (!Number.isFinite(seconds)) return undefined
  return Math.min(3600, Math.max(1, seconds))
}

/** Reads at most `max` bytes of the body; more is an error (the stream is cancelled). */
export async function readBounded (response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {})
    throw new AiProviderError('too-large', `the provider's answer is larger than ${max} bytes`)
  }
  if (response.body == null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      throw new AiProviderError('too-large', `the provider's answer is larger than ${max} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const isObject = (value: unknown): value is Record<string, unknown> => value != null && typeof value === 'object' && !Array.isArray(value)
const count = (value: unknown): number | null => typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null

/** The parts of a chat-completion body we use; anything else about it is an invalid response. */
function readCompletion (text: string): Completion {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AiProviderError('invalid-response', 'the provider\'s answer is not JSON')
  }
  if (!isObject(body) || !Array.isArray(body.choices) || body.choices.length === 0 || !isObject(body.choices[0])) {
    throw new AiProviderError('invalid-response', 'the provider\'s answer has no choices')
  }
  const choice = body.choices[0]
  const message = choice.message
  if (!isObject(message)) throw new AiProviderError('invalid-response', 'the provider\'s answer has no message')
  const content = typeof message.content === 'string' ? message.content : null
  const refusal = typeof message.refusal === 'string' && message.refusal.trim() !== '' ? message.refusal : null
  const usage = isObject(body.usage) ? body.usage : null
  const promptTokens = count(usage?.prompt_tokens)
  const completionTokens = count(usage?.completion_tokens)
  return {
    content,
    refusal,
    usage: promptTokens == null && completionTokens == null
      ? null
      : {
          promptTokens: promptTokens ?? 0,
          completionTokens: completionTokens ?? 0,
          totalTokens: count(usage?.total_tokens) ?? (promptTokens ?? 0) + (completionTokens ?? 0)
        },
    model: typeof body.model === 'string' ? body.model : null,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null
  }
}

export interface ChatClient {
  readonly model: string
  /**
   * One chat completion asking for a JSON object (`response_format: { type: 'json_object' }`). `signal` (the client's
   * request going away) aborts it, as does the timeout. Throws AiProviderError; never retries.
   */
  complete: (messages: ChatMessage[], options?: { signal?: AbortSignal }) => Promise<Completion>
}

export function createChatClient (options: ChatClientOptions): ChatClient {
  const url = completionsUrl(options.baseUrl)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (options.apiKey != null && options.apiKey !== '') headers.authorization = `Bearer ${options.apiKey}`

  return {
    model: options.model,
    async complete (messages, { signal } = {}) {
      const timeout = AbortSignal.timeout(timeoutMs)
      const combined = signal == null ? timeout : AbortSignal.any([timeout, signal])
      /** What an abort means: our timeout, or the caller giving up. */
      const aborted = (err: unknown) => timeout.aborted
        ? new AiProviderError('timeout', `the provider did not answer within ${timeoutMs} ms`, { cause: err })
        : new AiProviderError('aborted', 'the request was abandoned', { cause: err })
      if (signal?.aborted === true) throw aborted(signal.reason)
      try {
        let response: Response
        try {
          response = await fetch(url, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              model: options.model,
              messages,
              response_format: { type: 'json_object' },
              temperature: options.temperature ?? 0.7,
              stream: false
            }),
            // The configured endpoint only: a redirect would carry the key elsewhere.
            redirect: 'error',
            signal: combined
          })
        } catch (err) {
          if (combined.aborted) throw aborted(err)
          throw new AiProviderError('network', 'the provider could not be reached', { cause: err })
        }
        if (!response.ok) {
          await response.body?.cancel().catch(() => {})
          const status = response.status
          if (status === 429) {
            throw new AiProviderError('rate-limited', 'the provider answered 429 (rate limited)', { status, retryAfter: retryAfterSeconds(response.headers.get('retry-after')) })
          }
          if (status >= 500) throw new AiProviderError('unavailable', `the provider answered ${status}`, { status })
          throw new AiProviderError('bad-status', `the provider answered ${status}`, { status })
        }
        let text: string
        try {
          text = await readBounded(response, maxBytes)
        } catch (err) {
          if (err instanceof AiProviderError) throw err
          if (combined.aborted) throw aborted(err)
          throw new AiProviderError('network', 'the provider\'s answer was cut off', { cause: err })
        }
        return readCompletion(text)
      } catch (err) {
        if (err instanceof AiProviderError) throw err
        /* c8 ignore next */
        throw combined.aborted ? aborted(err) : new AiProviderError('network', 'the provider could not be reached', { cause: err })
      }
    }
  }
}
