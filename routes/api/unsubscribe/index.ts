// Unsubscribe links from notification emails, all public (the signed token is the credential): the page that asks
// which emails to stop, the confirmation (the page's form, RFC 8058 one-click posts from mail providers, or JSON), and
// the development preview that mints a link. Global and per-family rate limits apply (routes/api/autohooks.ts); a
// token is an HS256 signature, so there is nothing to guess that a tighter limit would protect.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../../lib/errors.js'
import { previewEnabled } from '../../../plugins/app/services/unsubscribe.js'
import { ErrorRef, ref } from '../../../schemas/common.js'
import {
  PlainNotFound, UnsubscribeConfirmBody, UnsubscribeConfirmQuery, UnsubscribePage, UnsubscribePageQuery, UnsubscribePreview,
  UnsubscribePreviewParams, UnsubscribeResult
} from '../../../schemas/unsubscribe.js'
import { confirmPage, donePage, invalidPage, PAGE_HEADERS } from './pages.js'

const FORM = 'application/x-www-form-urlencoded'
/** A form here holds a token and a scope: anything near this size is not one of ours. */
const FORM_BODY_LIMIT = 8 * 1024
const HTML = 'text/html; charset=utf-8'

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: ref(UnsubscribePage) } } })

/** A bad or expired token (400) or a deleted account (404) as the HTML page; anything else is a real error. */
function sendInvalidPage (reply: FastifyReply, err: unknown): FastifyReply {
  if (!(err instanceof HttpError) || (err.statusCode !== 400 && err.statusCode !== 404)) throw err
  return reply.code(err.statusCode).type(HTML).send(invalidPage())
}

/** The page's own form posts (a browser asks for HTML); mail providers' one-click posts and API clients get JSON. */
function wantsHtml (request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith(FORM) === true && /\btext\/html\b/i.test(request.headers.accept ?? '')
}

const unsubscribe: FastifyPluginAsyncTypebox = async fastify => {
  const service = fastify.unsubscribeService

  // This plugin only (autoload encapsulates it): the rest of the API takes JSON and multipart bodies alone.
  fastify.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const form = new URLSearchParams(body as string)
    // Only the known fields reach the route (first occurrence wins), on an object with no prototype to poison.
    const fields: Record<string, string> = Object.create(null)
    for (const name of ['token', 'scope', 'List-Unsubscribe']) {
      const field = form.get(name)
      if (field != null) fields[name] = field
    }
    done(null, fields)
  })

  // After helmet's headers (a parent hook), so this CSP replaces the API's on these replies only.
  fastify.addHook('onRequest', async (_request, reply) => {
    reply.headers(PAGE_HEADERS)
  })

  fastify.get('/', {
    schema: {
      operationId: 'unsubscribe.page',
      summary: 'The page an email\'s unsubscribe link opens (HTML)',
      description: 'Shows the account\'s email address and a form that posts the chosen scope to POST /api/unsubscribe; ' +
        'opening the page changes nothing (link scanners fetch it too). Tokens are valid 90 days. An invalid or expired ' +
        'token is a 400 page, a deleted account a 404 page, neither showing an address.',
      querystring: UnsubscribePageQuery,
      response: {
        200: htmlResponse('The confirmation page'),
        400: htmlResponse('The link is invalid or expired (HTML), or the query is invalid (JSON error body)'),
        404: htmlResponse('The account no longer exists')
      }
    }
  }, async (request, reply) => {
    const { token, scope } = request.query
    try {
      const { email } = await service.recipient(token ?? '')
      return await reply.type(HTML).send(confirmPage(email, token ?? '', scope))
    } catch (err) {
      return sendInvalidPage(reply, err)
    }
  })

  fastify.post('/', {
    // A post without a body (token and scope in the query) is a one-click post too, not a malformed one.
    preValidation: async request => { request.body ??= {} },
    schema: {
      operationId: 'unsubscribe.confirm',
      summary: 'Turn notification emails off with an unsubscribe token',
      description: 'Takes JSON `{ token, scope? }` or a form (application/x-www-form-urlencoded): the unsubscribe page\'s ' +
        'own form, or the RFC 8058 one-click post (`List-Unsubscribe=One-Click`) mail providers send to the link of the ' +
        'List-Unsubscribe header, whose token and scope are in the query. Body fields win over query fields; scope ' +
        'defaults to all. all turns off emailLikes, emailComments and the digest (digestFrequency none) and sets ' +
        'unsubscribedAll; likes, comments and digest turn off one kind. Repeating it changes nothing. A form post that ' +
        'accepts text/html gets an HTML page; everything else gets JSON.',
      consumes: ['application/json', FORM],
      querystring: UnsubscribeConfirmQuery,
      body: UnsubscribeConfirmBody,
      response: {
        200: {
          description: 'Unsubscribed: JSON, or an HTML page for the unsubscribe page\'s form',
          content: { 'application/json': { schema: ref(UnsubscribeResult) }, 'text/html': { schema: ref(UnsubscribePage) } }
        },
        400: {
          description: 'Missing, invalid or expired token',
          content: { 'application/json': { schema: ErrorRef }, 'text/html': { schema: ref(UnsubscribePage) } }
        },
        404: {
          description: 'The account no longer exists',
          content: { 'application/json': { schema: ErrorRef }, 'text/html': { schema: ref(UnsubscribePage) } }
        }
      }
    }
  }, async (request, reply) => {
    const token = request.body?.token ?? request.query.token ?? ''
    const scope = request.body?.scope ?? request.query.scope ?? 'all'
    if (!wantsHtml(request)) return { success: true as const, ...(await service.apply(token, scope)) }
    try {
      const { email } = await service.apply(token, scope)
      return await reply.type(HTML).send(donePage(email, scope))
    } catch (err) {
      return sendInvalidPage(reply, err)
    }
  })

  fastify.get('/preview/:userId', {
    schema: {
      operationId: 'unsubscribe.preview',
      summary: 'A working unsubscribe token and link for any user id (development and test only)',
      description: 'For trying the unsubscribe page while developing. Answers only when NODE_ENV is development or test; ' +
        'any other value, unset included, gives 404 with the plain text body `Not found`. The user id is not looked up.',
      params: UnsubscribePreviewParams,
      response: {
        200: ref(UnsubscribePreview),
        404: { description: 'Not in development or test (text/plain)', content: { 'text/plain': { schema: ref(PlainNotFound) } } }
      }
    }
  }, async (request, reply) => {
    if (!previewEnabled(fastify.config.nodeEnv)) return await reply.code(404).type('text/plain; charset=utf-8').send('Not found')
    const { userId } = request.params
    return { token: service.token(userId), link: service.link(userId) }
  })
}

export default unsubscribe
