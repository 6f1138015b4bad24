// Request validators (Ajv, through @fastify/ajv-compiler), compiled once per distinct schema in a process. Fastify asks
// for a validator compiler in every encapsulated context (a route file each), and @fastify/ajv-compiler keys its pool
// of Ajv instances by JSON.stringify of all the shared schemas, on every call: three modes for each of about a hundred
// contexts took ~200 ms of every start. And Ajv compiled the same params and query schemas again for every route that
// declares them. Compilers are now kept per set of shared schemas (recognised by its members, serialised once per new
// set) and mode, validators per schema text: instances of one process (the test suite builds many) share them, as the
// serializers do (response-serializers.ts). A validator is a pure function of its schema and the shared schemas; Fastify
// reads its `errors` right after the call, so routes may share one.
import { createHash } from 'node:crypto'
import AjvCompiler from '@fastify/ajv-compiler'

type Validator = ((data: unknown) => boolean) & { errors?: unknown }
interface Route { schema: unknown, httpPart?: string }
type Compile = (route: Route) => Validator
export interface AjvOptions { customOptions?: Record<string, unknown>, plugins?: unknown[] }

const ajvCompilers = AjvCompiler()

/**
 * Query strings and params are text, so they are coerced (`?limit=5`, a single `?tag=x` as an array). JSON bodies
 * carry real types: they are validated without coercion, so `"ingredients": "flour"` is an error, not `["flour"]`.
 * A headers schema names the headers a route reads; dropping the others (removeAdditional) would take the multipart
 * boundary and the user agent away from the route.
 */
const MODES = {
  lenient: {},
  strict: { coerceTypes: false },
  headers: { removeAdditional: false }
} satisfies Record<string, Record<string, unknown>>
type Mode = keyof typeof MODES

const modeOf = (route: Route): Mode => route.httpPart === 'body' ? 'strict' : route.httpPart === 'headers' ? 'headers' : 'lenient'

/** Sets of shared schemas and options seen so far, each with a digest of its content. */
const knownSets: Array<{ members: unknown[], options: string, plugins: unknown[], digest: string }> = []
const compilers = new Map<string, Compile>()
const validators = new Map<string, Validator>()

const digestOf = (text: string): string => createHash('sha256').update(text).digest('base64url')

/** The digest of a context's shared schemas and Ajv options: serialised only for a set not seen before. */
function setDigest (external: Record<string, unknown>, options: AjvOptions): string {
  const members = Object.values(external)
  const optionsText = JSON.stringify(options.customOptions ?? {})
  const plugins = options.plugins ?? []
  const known = knownSets.find(set => set.options === optionsText && set.members.length === members.length &&
    set.members.every((member, i) => member === members[i]) && set.plugins.length === plugins.length &&
    set.plugins.every((plugin, i) => plugin === plugins[i]))
  if (known != null) return known.digest
  const digest = digestOf(JSON.stringify([external, optionsText, plugins.map(plugin => String(plugin))]))
  knownSets.push({ members, options: optionsText, plugins, digest })
  return digest
}

/** Fastify's `schemaController.compilersFactory.buildValidator`. */
export function buildValidator (external: Record<string, unknown>, options: AjvOptions): (route: Route) => Validator {
  const set = setDigest(external, options)
  const compilerFor = (mode: Mode): Compile => {
    const key = `${set}:${mode}`
    let compile = compilers.get(key)
    if (compile == null) {
      compile = ajvCompilers(external as never, { ...options, customOptions: { ...options.customOptions, ...MODES[mode] } } as never) as unknown as Compile
      compilers.set(key, compile)
    }
    return compile
  }
  return route => {
    const mode = modeOf(route)
    const key = `${set}:${mode}:${JSON.stringify(route.schema)}`
    let validator = validators.get(key)
    if (validator == null) {
      validator = compilerFor(mode)(route)
      validators.set(key, validator)
    }
    return validator
  }
}
