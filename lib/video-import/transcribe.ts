// A transcript of a video's audio from the AI provider (AI_TRANSCRIBE): `POST {AI_BASE_URL}/audio/transcriptions`,
// the OpenAI-compatible form (multipart: `file`, `model`, `response_format=json`; answer `{ "text": ... }`). The
// audio is bytes the caller fetched within its bounds; the answer is read up to 1 MB and its text kept up to
// TRANSCRIPT_MAX_CHARS. One request, never retried; failures are AiProviderError as for chat completions.
import { AiProviderError, readBounded } from '../ai/provider.js'
import { sanitizeString } from '../sanitize.js'

/** Audio sent to be transcribed at most (the OpenAI endpoint takes up to 25 MB). */
export const AUDIO_MAX_BYTES = 16 * 1024 * 1024
export const TRANSCRIPT_MAX_CHARS = 20_000
const MAX_ANSWER_BYTES = 1024 * 1024

export interface TranscribeOptions {
  baseUrl: string
  apiKey?: string
  model: string
  timeoutMs: number
  signal?: AbortSignal
}

/** `{baseUrl}/audio/transcriptions`, trailing slashes of the base dropped. */
export const transcriptionsUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/audio/transcriptions`

/** The text the provider hears in `audio` ('' when it hears nothing). */
export async function transcribe (audio: Buffer, contentType: string, options: TranscribeOptions): Promise<string> {
  if (audio.length > AUDIO_MAX_BYTES) throw new AiProviderError('too-large', `the audio is larger than ${AUDIO_MAX_BYTES} bytes`)
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal == null ? timeout : AbortSignal.any([timeout, options.signal])
  const form = new FormData()
  const type = contentType === '' ? 'application/octet-stream' : contentType
  const extension = type.startsWith('video/') ? 'mp4' : type === 'audio/mpeg' ? 'mp3' : type.startsWith('audio/') ? 'm4a' : 'mp4'
  form.append('file', new Blob([new Uint8Array(audio)], { type }), `audio.${extension}`)
  form.append('model', options.model)
  form.append('response_format', 'json')
  const headers: Record<string, string> = { accept: 'application/json' }
  if (options.apiKey != null && options.apiKey !== '') headers.authorization = `Bearer ${options.apiKey}`
  let response: Response
  try {
    // The configured endpoint only: a redirect would carry the key elsewhere.
    response = await fetch(transcriptionsUrl(options.baseUrl), { method: 'POST', headers, body: form, redirect: 'error', signal })
  } catch (err) {
    if (timeout.aborted) throw new AiProviderError('timeout', `the provider did not answer within ${options.timeoutMs} ms`, { cause: err })
    if (signal.aborted) throw new AiProviderError('aborted', 'the request was abandoned', { cause: err })
    throw new AiProviderError('network', 'the provider could not be reached', { cause: err })
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {})
    throw new AiProviderError(response.status >= 500 ? 'unavailable' : response.status === 429 ? 'rate-limited' : 'bad-status',
      `the provider answered ${response.status}`, { status: response.status })
  }
  let body: unknown
  try {
    body = JSON.parse(await readBounded(response, MAX_ANSWER_BYTES))
  } catch (err) {
    if (err instanceof AiProviderError) throw err
    if (signal.aborted) throw new AiProviderError(timeout.aborted ? 'timeout' : 'aborted', 'the transcription was cut off', { cause: err })
    throw new AiProviderError('invalid-response', 'the provider\'s answer is not JSON', { cause: err })
  }
  const text = body != null && typeof body === 'object' && typeof (body as { text?: unknown }).text === 'string' ? (body as { text: string }).text : null
  if (text == null) throw new AiProviderError('invalid-response', 'the provider\'s answer has no text')
  return sanitizeString(text.slice(0, TRANSCRIPT_MAX_CHARS).replaceAll('\u0000', '')).trim()
}
