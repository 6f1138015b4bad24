// The validator of a route whose body takes only its known keys (decisions.md, Email preferences). The app's
// validator removes unknown body fields before `additionalProperties: false` is ever checked (removeAdditional:
// 'all', decisions.md section 1), so such a route compiles its schemas with this one instead
// (`validatorCompiler: closedBodyValidator`): an unknown key is an error naming it (`someKey: is not allowed`), the
// body is otherwise checked as everywhere (no coercion, every problem listed).
import AjvCompiler from '@fastify/ajv-compiler'
import type { ValidateFunction } from 'ajv'
import type { FastifySchemaCompiler } from 'fastify'

/** Problems reported for one body: a body of thousands of unknown keys is one short answer, not thousands of lines. */
export const MAX_REPORTED_PROBLEMS = 20

type Check = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] }

// The compiler takes the route's definition ({ schema, method, url, httpPart }), as Fastify passes it; the package's
// declaration says a bare schema (server-options.ts meets the same mismatch).
const compile = AjvCompiler()({}, {
  customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: true }
}) as unknown as (route: { schema: unknown }) => ValidateFunction

export const closedBodyValidator: FastifySchemaCompiler<unknown> = route => {
  const validate = compile(route)
  // Fastify reads `errors` off the function it was given, right after the call.
  const check: Check = data => {
    const valid = validate(data)
    check.errors = valid ? null : validate.errors?.slice(0, MAX_REPORTED_PROBLEMS)
    return valid
  }
  return check
}
