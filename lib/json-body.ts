// JSON bodies: Fastify's own parser (prototype-poisoning keys removed), except that an empty body with a JSON
// content type, which many HTTP clients send on body-less POSTs, counts as no body instead of a 400.
import fp from 'fastify-plugin'

export default fp(async fastify => {
  const parse = fastify.getDefaultJsonParser('remove', 'remove')
  fastify.removeContentTypeParser('application/json')
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text.trim() === '') {
      done(null, undefined)
      return
    }
    parse(request, text, done)
  })
}, { name: 'json-body' })
