// Unsubscribe links from emails: the page, the confirmation (form, one-click or JSON) and the development preview.
import { Type } from 'typebox'
import { StringEnum } from './common.js'

export const UNSUBSCRIBE_SCOPES = ['all', 'likes', 'comments', 'digest'] as const
export type UnsubscribeScope = typeof UNSUBSCRIBE_SCOPES[number]

const SCOPE_DESCRIPTION = 'all (every notification email: likes, comments and the digest off, unsubscribedAll on), ' +
  'or one kind: likes, comments, digest'

/** A signed unsubscribe token (JWT from an email link); query strings and form fields alike. */
const Token = Type.String({ maxLength: 2048, description: 'The unsubscribe token from the email link' })

export const UnsubscribePageQuery = Type.Object({
  token: Type.Optional(Token),
  scope: StringEnum(UNSUBSCRIBE_SCOPES, { default: 'all', description: `The choice preselected on the page: ${SCOPE_DESCRIPTION}` })
})

/** RFC 8058 one-click posts carry only `List-Unsubscribe=One-Click`: token and scope then come from the query. */
export const UnsubscribeConfirmQuery = Type.Object({
  token: Type.Optional(Token),
  scope: Type.Optional(StringEnum(UNSUBSCRIBE_SCOPES, { description: `Used when the body has no scope: ${SCOPE_DESCRIPTION}` }))
})

export const UnsubscribeConfirmBody = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 2048, description: 'The unsubscribe token; wins over the query\'s' })),
  scope: Type.Optional(StringEnum(UNSUBSCRIBE_SCOPES, { description: `Wins over the query's; default all. ${SCOPE_DESCRIPTION}` })),
  'List-Unsubscribe': Type.Optional(Type.Literal('One-Click', { description: 'Sent by mail providers (RFC 8058 one-click)' }))
}, { description: 'JSON, or a form (application/x-www-form-urlencoded) with the same fields' })

export const UnsubscribeResult = Type.Object({
  success: Type.Literal(true),
  email: Type.String({ description: 'The address that no longer gets these emails' }),
  scope: StringEnum(UNSUBSCRIBE_SCOPES, { description: 'What was turned off' })
}, { $id: 'UnsubscribeResult', description: 'Unsubscribed (repeating it changes nothing)' })

export const UnsubscribePage = Type.String({
  $id: 'UnsubscribePage',
  description: 'An HTML page (text/html; charset=utf-8) with its own strict Content-Security-Policy, Cache-Control: no-store ' +
    'and Referrer-Policy: no-referrer'
})

export const UnsubscribePreview = Type.Object({
  token: Type.String({ description: 'An unsubscribe token for the user (scope all), valid 90 days' }),
  link: Type.String({ description: 'The unsubscribe link an email would carry' })
}, { $id: 'UnsubscribePreview', description: 'A token and link for the user id (no lookup: any id gets one)' })

export const PlainNotFound = Type.String({ $id: 'PlainNotFound', description: 'text/plain: Not found' })

export const UnsubscribePreviewParams = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: 64, description: 'Any user id; it is not looked up' })
})
