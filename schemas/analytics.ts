// The client analytics settings the web app reads before loading any analytics script.
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum } from './common.js'

export const ANALYTICS_PROVIDERS = ['plausible', 'umami', 'matomo', 'google'] as const

export const AnalyticsConfig = Type.Object({
  enabled: Type.Boolean({ description: 'Whether a provider is configured' }),
  provider: Nullable(StringEnum(ANALYTICS_PROVIDERS)),
  siteId: Nullable(Type.String(), { description: 'The site\'s id (or domain) at the provider' }),
  host: Nullable(Type.String(), { description: 'Where the provider\'s script is served (self-hosted instances); null: the provider\'s default' }),
  respectDoNotTrack: Type.Literal(true, { description: 'Load nothing for browsers that send DNT: 1 or Sec-GPC: 1' }),
  requiresConsent: Type.Literal(true, { description: 'Load nothing before the visitor consents to analytics' }),
  doNotSell: Type.Boolean({
    description: 'The signed-in caller opted out of the sale or sharing of their personal information (CCPA do-not-sell): ' +
      'load no analytics that shares data with a third party for them. Always false anonymously.'
  })
}, { $id: 'AnalyticsConfig', description: 'Client analytics settings' })
export type AnalyticsConfigView = Static<typeof AnalyticsConfig>
