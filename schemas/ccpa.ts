// CCPA requests (do-not-sell and the other consumer requests): what a client sends and the acknowledgement it gets.
import { Type, type Static } from 'typebox'
import { CCPA_REQUEST_TYPES } from '../db/schema/compliance.js'
import { Id, StringEnum } from './common.js'

export type CcpaRequestType = typeof CCPA_REQUEST_TYPES[number]

export const CCPA_LIMITS = {
  email: 254,
  name: 200,
  details: 5000,
  /** Requests one client address may send an hour, both routes together. */
  perHour: 5,
  /** The same request again within this many hours answers the first one. */
  duplicateHours: 24
} as const

/** Request types that opt the signed-in requester out of the sale or sharing of their personal information. */
export const OPT_OUT_TYPES: ReadonlySet<CcpaRequestType> = new Set(['do-not-sell', 'opt-out'])

const fields = {
  email: Type.String({
    format: 'email',
    maxLength: CCPA_LIMITS.email,
    description: `Where we answer the request (at most ${CCPA_LIMITS.email} characters); stored lower-cased`
  }),
  name: Type.Optional(Type.String({ maxLength: CCPA_LIMITS.name, description: `At most ${CCPA_LIMITS.name} characters` })),
  details: Type.Optional(Type.String({ maxLength: CCPA_LIMITS.details, description: `At most ${CCPA_LIMITS.details} characters` }))
}

export const CcpaDoNotSellBody = Type.Object(fields)

export const CcpaConsumerRequestBody = Type.Object({
  ...fields,
  requestType: Type.Optional(StringEnum(CCPA_REQUEST_TYPES, {
    default: 'know',
    description: '`know` (default): what we collect about you; `access`: a copy of it; `delete`; `correct`; ' +
      '`do-not-sell` / `opt-out`: opt out of the sale or sharing of your personal information; `other`'
  }))
})

export type CcpaInput = Static<typeof CcpaDoNotSellBody>

/** `{ success: true, requestId }`, described for one route's status. */
export const ccpaAcknowledgement = (description: string) => Type.Object({
  success: Type.Literal(true),
  requestId: Id
}, { description })
