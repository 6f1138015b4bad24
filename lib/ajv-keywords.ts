// Keywords of our own for the request validators, so rules beyond JSON Schema are reported in the same pass as the
// body's other errors (decisions.md: every field error at once).
import type { Ajv, SchemaValidateFunction } from 'ajv'
import { PASSWORD_RULE_KEYWORD, passwordRuleBreaks } from './identity.js'

const checkPassword: SchemaValidateFunction = (enabled: boolean, value: string) => {
  if (!enabled) return true
  const broken = passwordRuleBreaks(value)
  checkPassword.errors = broken.map(message => ({ keyword: PASSWORD_RULE_KEYWORD, message, params: {} }))
  return broken.length === 0
}

export function passwordRule (ajv: Ajv): Ajv {
  return ajv.addKeyword({ keyword: PASSWORD_RULE_KEYWORD, type: 'string', schemaType: 'boolean', errors: true, validate: checkPassword })
}
