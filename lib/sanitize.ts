// The body sanitizer of decisions.md section 1. It removes script elements, event-handler attributes and
// javascript:/vbscript:/data:text/html URLs, and otherwise returns the input byte for byte: plain text such as
// `salt & pepper`, `a < b` or `Avoid javascript: the bad parts` is never escaped or changed.
// It is defence in depth only; every HTML surface escapes user text when it renders it.
import { decodeHTML } from 'entities'

const DANGEROUS_SCHEMES = ['javascript:', 'vbscript:', 'data:text/html']

/** Elements removed as a whole tag (their text content, if any, stays as inert text). */
const STRIPPED_TAGS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link'])

/** Attributes that carry markup or a navigation target whatever their value looks like. */
const ALWAYS_DROPPED_ATTRIBUTES = new Set(['srcdoc'])

const SCRIPT_ELEMENT = /<script\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?<\/script\b[^>]*>/gi
const UNCLOSED_SCRIPT = /<script\b[\s\S]*$/i
const STRAY_SCRIPT_END = /<\/script\b[^>]*>?/gi
const STRIPPED_END_TAG = new RegExp(`<\\/(?:${[...STRIPPED_TAGS].join('|')})\\b[^>]*>?`, 'gi')
// A start tag: name, then attributes (quoted values may hold `>`), then `>` or the end of the string.
const START_TAG = /<([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*'|["'])*)(>|$)/g
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g
// Browsers ignore ASCII whitespace and control characters inside a URL scheme.
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f]+/g // eslint-disable-line no-control-regex

const MAX_PASSES = 8

function normalizeForScheme (value: string): string {
  return decodeHTML(value).replace(IGNORED_IN_SCHEME, '').toLowerCase()
}

function hasDangerousUrl (value: string): boolean {
  const normalized = normalizeForScheme(value)
  return DANGEROUS_SCHEMES.some(scheme => normalized.includes(scheme))
}

function isDangerousAttribute (name: string, value: string | undefined): boolean {
  const lower = name.toLowerCase()
  if (lower.startsWith('on') || ALWAYS_DROPPED_ATTRIBUTES.has(lower)) return true
  if (value == null) return false
  if (hasDangerousUrl(value)) return true
  return lower === 'style' && /expression\s*\(|behavior\s*:|-moz-binding/i.test(decodeHTML(value))
}

function cleanTag (match: string, name: string, attributes: string, close: string): string {
  if (STRIPPED_TAGS.has(name.toLowerCase())) return ''
  if (attributes === '') return match
  const kept: string[] = []
  let dropped = false
  for (const attr of attributes.matchAll(ATTRIBUTE)) {
    const value = attr[2] ?? attr[3] ?? attr[4]
    if (isDangerousAttribute(attr[1], value)) dropped = true
    else kept.push(attr[0])
  }
  if (!dropped) return match
  return `<${name}${kept.length > 0 ? ' ' + kept.join(' ') : ''}${close}`
}

/** `javascript:alert(1)` as a whole value (a URL field, say) loses its scheme. */
function stripLeadingScheme (value: string): string {
  const normalized = normalizeForScheme(value)
  const scheme = DANGEROUS_SCHEMES.find(s => normalized.startsWith(s))
  if (scheme == null) return value
  const decoded = decodeHTML(value)
  const pattern = new RegExp('^[\\u0000-\\u0020\\u007f]*' + [...scheme].map(c => c.replace(/[/:]/g, '\\$&')).join('[\\u0000-\\u0020\\u007f]*'), 'i')
  return decoded.replace(pattern, '')
}

function onePass (input: string): string {
  let out = input
  if (out.includes('<')) {
    out = out.replace(SCRIPT_ELEMENT, '').replace(UNCLOSED_SCRIPT, '').replace(STRAY_SCRIPT_END, '')
    out = out.replace(START_TAG, cleanTag).replace(STRIPPED_END_TAG, '')
  }
  // Cheap test first: only strings that could start with a scheme (or an entity hiding one) are decoded.
  if (/^[\u0000-\u0020\u007f]*[jvd&]/i.test(out)) out = stripLeadingScheme(out) // eslint-disable-line no-control-regex
  return out
}

export function sanitizeString (input: string): string {
  let current = input
  // Repeat until stable, so removing one piece cannot assemble another (`<scr<script></script>ipt>`).
  for (let i = 0; i < MAX_PASSES; i++) {
    const next = onePass(current)
    if (next === current) return current
    current = next
  }
  return current
}

/** NUL bytes and lone surrogates are refused, never stored (PostgreSQL rejects them in text and jsonb). */
export function hasInvalidCharacters (value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed()
}
