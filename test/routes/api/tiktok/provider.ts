// A fake OpenAI-compatible provider for the video import: chat completions (scripted replies, as
// test/helpers/ai-provider.ts) and `/v1/audio/transcriptions` (multipart in, `{ text }` out), on one real HTTP server
// on 127.0.0.1, so AI_BASE_URL serves both as it would in production. Every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { completion as chatCompletion, recipeJson, TEST_API_KEY, TEST_MODEL, type ProviderMessage } from '../../../helpers/ai-provider.js'

export interface ChatRequest { messages: ProviderMessage[], model: string, authorization?: string }
export interface TranscriptionRequest { model: string, responseFormat: string | null, fileName: string, fileType: string, fileBytes: number, authorization?: string }
export type Reply = { status?: number, json?: unknown }

export interface VideoProvider {
  url: string
  chats: ChatRequest[]
  transcriptions: TranscriptionRequest[]
  /** Replies for the next chat requests, in order; then `fallback`. */
  script: (...replies: Reply[]) => void
  fallback: Reply
  /** The transcription answer. */
  transcript: Reply
  env: (extra?: Record<string, string>) => Record<string, string>
}

export { recipeJson }
/** A chat-completion answer whose message content is `content` (test/helpers/ai-provider.ts). */
export const completion = (content: string | object): Reply => chatCompletion(content) as Reply

export async function videoProvider (t: Test): Promise<VideoProvider> {
  const queue: Reply[] = []
  const provider: VideoProvider = {
    url: '',
    chats: [],
    transcriptions: [],
    script: (...replies) => { queue.push(...replies) },
    fallback: completion(recipeJson()),
    transcript: { json: { text: '' } },
    env: (extra = {}) => ({ AI_BASE_URL: provider.url, AI_API_KEY: TEST_API_KEY, AI_MODEL: TEST_MODEL, ...extra })
  }
  const send = (res: ServerResponse, reply: Reply) => {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json ?? {}))
  }
  const answer = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const authorization = req.headers.authorization
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      const parsed = JSON.parse(body.toString('utf8'))
      provider.chats.push({ messages: parsed.messages, model: parsed.model, authorization })
      send(res, queue.shift() ?? provider.fallback)
    } else if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
      // The multipart body read as fetch reads one (undici's FormData parser).
      const form = await new Request('http://provider.test/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData()
      const upload = form.get('file')
      provider.transcriptions.push({
        model: String(form.get('model')),
        responseFormat: form.get('response_format') as string | null,
        fileName: upload instanceof File ? upload.name : '',
        fileType: upload instanceof File ? upload.type : '',
        fileBytes: upload instanceof File ? upload.size : -1,
        authorization
      })
      send(res, provider.transcript)
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
    }
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => { answer(req, res, Buffer.concat(chunks)).catch((err: unknown) => { res.destroy(err as Error) }) })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return provider
}
