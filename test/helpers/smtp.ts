// A real SMTP server on 127.0.0.1 (smtp-server) whose received messages are parsed by mailparser, so tests read
// what a mail client would: headers, text, HTML and links.
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import type { Test } from 'tap'
import { freePort } from './net.js'

export interface ReceivedMail {
  to: string
  subject: string
  text: string
  html: string
  headers: ParsedMail['headers']
  /** A header as sent (mailparser turns List-* headers into objects), unfolded; undefined when absent. */
  header: (name: string) => string | undefined
  /** Every http(s) link of the HTML part. */
  links: string[]
  messageId: string | undefined
}

export interface TestSmtp {
  url: string
  port: number
  messages: ReceivedMail[]
  /** Starts listening (on the reserved port, when created with `listening: false`). */
  start: () => Promise<void>
  stop: () => Promise<void>
  /** Answers the next `n` messages with `code` (e.g. 451 for a temporary failure, 550 for a permanent one). */
  reject: (n: number, code: number) => void
  /** Waits for a message to `to` (matching `subject`, when given) and returns it. */
  waitFor: (to: string, subject?: RegExp, timeoutMs?: number) => Promise<ReceivedMail>
  sentTo: (to: string) => ReceivedMail[]
}

/** An SMTP server for this test; `listening: false` reserves a port where nothing answers until `start()`. */
export async function smtpServer (t: Test, options: { listening?: boolean } = {}): Promise<TestSmtp> {
  const port = await freePort()
  const messages: ReceivedMail[] = []
  let rejections: { left: number, code: number } = { left: 0, code: 0 }
  let server: SMTPServer | null = null

  const smtp: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    async start () {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData (stream, _session, callback) {
          if (rejections.left > 0) {
            rejections.left--
            stream.resume()
            stream.on('end', () => { callback(Object.assign(new Error('Try again later'), { responseCode: rejections.code })) })
            return
          }
          simpleParser(stream).then(mail => {
            const to = Array.isArray(mail.to) ? mail.to[0] : mail.to
            const html = typeof mail.html === 'string' ? mail.html : ''
            messages.push({
              to: to?.value[0]?.address ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html,
              headers: mail.headers,
              header: name => {
                const line = mail.headerLines.find(h => h.key === name.toLowerCase())?.line
                return line?.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()
              },
              links: [...html.matchAll(/href="(https?:[^"]+)"/g)].map(m => m[1].replaceAll('&amp;', '&')),
              messageId: mail.messageId
            })
            callback()
          }, (err: Error) => { callback(err) })
        }
      })
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject)
        server!.listen(port, '127.0.0.1', () => { resolve() })
      })
    },
    async stop () {
      if (server == null) return
      const closing = server
      server = null
      await new Promise<void>(resolve => closing.close(() => { resolve() }))
    },
    reject (n, code) { rejections = { left: n, code } },
    async waitFor (to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = messages.find(m => m.to === to && (subject == null || subject.test(m.subject)))
        if (found != null) return found
        if (Date.now() > deadline) throw new Error(`no email to ${to}${subject == null ? '' : ` matching ${String(subject)}`} (got: ${messages.map(m => `${m.to}: ${m.subject}`).join('; ')})`)
        await new Promise(resolve => setTimeout(resolve, 25))
      }
    },
    sentTo: to => messages.filter(m => m.to === to)
  }
  if (options.listening !== false) await smtp.start()
  t.teardown(async () => { await smtp.stop() })
  return smtp
}
