// The body sanitizer of decisions.md section 1. It removes script elements, event-handler attributes and
// javascript:/vbscript:/data:text/html URLs in attributes, and otherwise returns the input byte for byte: text
// such as `salt & pepper`, `a < b` or `JavaScript: The Good Parts` is never escaped or changed.
// It is defence in depth only; every HTML surface escapes user text when it renders it.
//
// A single left-to-right scan that follows the HTML tokenizer (so it sees tags exactly where a browser does:
// comments end at `-->`, raw-text elements at their end tag) and rebuilds the output from slices of the
// original. Every search only moves forward, so the cost is linear in the input (request bodies are
// sanitized before any length limit applies).
import { decodeHTML } from 'entities'

const DANGEROUS_SCHEMES = ['javascript:', 'vbscript:', 'data:text/html']

/**
 * removed: the element goes with everything up to its end tag.
 * stripped: start and end tags go; what lies between them stays and is scanned as markup.
 * rawText: a browser reads the content as text up to the end tag. Inside <svg>/<math>, or with scripting off
 * (<noscript>), the same content is read as markup, so it is kept only if it is also safe as markup.
 */
type Kind = 'removed' | 'stripped' | 'rawText'

const ELEMENTS = new Map<string, Kind>([
  ...['script', 'iframe'].map(name => [name, 'removed'] as const),
  ...['frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link'].map(name => [name, 'stripped'] as const),
  ...['title', 'textarea', 'style', 'xmp', 'noscript', 'noembed', 'noframes', 'plaintext'].map(name => [name, 'rawText'] as const)
])
const LONGEST_NAME = Math.max(...[...ELEMENTS.keys()].map(name => name.length))

// Browsers ignore ASCII whitespace and control characters inside a URL scheme.
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f]+/g // eslint-disable-line no-control-regex
const DANGEROUS_STYLE = /expression\s*\(|behavior\s*:|-moz-binding/i
// A value that is markup in another reading: pasted into a comment, a raw-text element or a naive parser,
// `<a title="</title><img onerror=…>">` becomes a tag (mutation XSS). Real values have no reason to hold one.
const MARKUP_IN_VALUE = /<[a-z!/?]|--!?>|]]>/i
// Every check on a value needs one of these (a colon may be written as an entity).
const SUSPICIOUS_VALUE = /[:&<>]/

const MAX_PASSES = 8

const TAB = 9
const LF = 10
const FF = 12
const CR = 13
const SPACE = 32
const QUOTE = 34
const APOSTROPHE = 39
const SLASH = 47
const EQUALS = 61
const LT = 60
const GT = 62

function isWhitespace (c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF || c === CR
}

function isAsciiAlpha (c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}

function hasDangerousScheme (value: string): boolean {
  const normalized = value.replace(IGNORED_IN_SCHEME, '').toLowerCase()
  return DANGEROUS_SCHEMES.some(scheme => normalized.includes(scheme))
}

function hasDangerousUrl (value: string): boolean {
  const hasEntity = value.includes('&')
  // Every dangerous scheme needs a colon, written as such or as an entity.
  if (!hasEntity && !value.includes(':')) return false
  return hasDangerousScheme(value) || (hasEntity && hasDangerousScheme(decodeHTML(value)))
}

function isDangerousValue (name: string, value: string): boolean {
  if (!SUSPICIOUS_VALUE.test(value)) return false
  if (hasDangerousUrl(value) || MARKUP_IN_VALUE.test(value)) return true
  return name === 'style' && DANGEROUS_STYLE.test(decodeHTML(value))
}

function isOn (s: string, at: number): boolean {
  return (s.charCodeAt(at) | 0x20) === 111 && (s.charCodeAt(at + 1) | 0x20) === 110 // `on`, any case
}

interface Tag {
  /** Lower-case tag name, or '' for a name that is no element of ELEMENTS. */
  name: string
  kind: Kind | undefined
  /** Index just past the tag: after its `>`, or the region's end when the tag is unclosed. */
  end: number
  closed: boolean
  /** [start, end) spans of dangerous attributes, each with the whitespace before it. */
  drops: Array<[number, number]> | null
}

/** Reads a start or end tag whose name starts at `from`, as the HTML tokenizer does (attributes included). */
function readTag (s: string, from: number, limit: number): Tag {
  let i = from
  let hasLt = false
  while (i < limit) {
    const c = s.charCodeAt(i)
    if (isWhitespace(c) || c === SLASH || c === GT) break
    if (c === LT) hasLt = true
    i++
  }
  let name = ''
  let kind: Kind | undefined
  // A `<` in a tag name (`<scr<script>`) makes an element no one needs; removing it keeps `<script` out of sight.
  if (hasLt) kind = 'stripped'
  else if (i - from <= LONGEST_NAME) {
    name = s.slice(from, i).toLowerCase()
    kind = ELEMENTS.get(name)
  }
  let drops: Array<[number, number]> | null = null
  let previousEnd = i
  while (true) {
    while (i < limit && (isWhitespace(s.charCodeAt(i)) || s.charCodeAt(i) === SLASH)) i++
    if (i >= limit) return { name, kind, end: limit, closed: false, drops }
    if (s.charCodeAt(i) === GT) return { name, kind, end: i + 1, closed: true, drops }
    // Attribute name: a leading `=` belongs to it; quotes and `<` are ordinary characters.
    const nameStart = i++
    hasLt = s.charCodeAt(nameStart) === LT
    while (i < limit) {
      const c = s.charCodeAt(i)
      if (isWhitespace(c) || c === SLASH || c === GT || c === EQUALS) break
      if (c === LT) hasLt = true
      i++
    }
    const nameLength = i - nameStart
    const attrName = nameLength === 5 || nameLength === 6 ? s.slice(nameStart, i).toLowerCase() : ''
    // Event handlers, markup in srcdoc, and `<` in a name (a parse error that only hides `<script` from others).
    let dangerous = (nameLength >= 2 && isOn(s, nameStart)) || attrName === 'srcdoc' || hasLt
    let j = i
    while (j < limit && isWhitespace(s.charCodeAt(j))) j++
    if (j < limit && s.charCodeAt(j) === EQUALS) {
      j++
      while (j < limit && isWhitespace(s.charCodeAt(j))) j++
      const q = j < limit ? s.charCodeAt(j) : -1
      let valueStart = j
      let valueEnd: number
      if (q === QUOTE || q === APOSTROPHE) {
        const close = s.indexOf(q === QUOTE ? '"' : "'", j + 1)
        valueStart = j + 1
        valueEnd = close === -1 || close >= limit ? limit : close
        i = valueEnd === limit ? limit : valueEnd + 1
      } else {
        while (j < limit && !isWhitespace(s.charCodeAt(j)) && s.charCodeAt(j) !== GT) j++
        valueEnd = i = j
      }
      if (!dangerous && valueEnd > valueStart) dangerous = isDangerousValue(attrName, s.slice(valueStart, valueEnd))
    }
    if (dangerous) {
      const last = drops?.at(-1)
      if (last != null && last[1] === previousEnd) last[1] = i
      else (drops ??= []).push([previousEnd, i])
    }
    previousEnd = i
  }
}

/** Collects the output as slices of the original plus replacements. */
class Output {
  private readonly parts: string[] = []
  private copied: number
  changed = false

  constructor (private readonly s: string, start: number) {
    this.copied = start
  }

  /** Puts `insert` in place of s[from, to). */
  replace (from: number, to: number, insert = ''): void {
    if (from > this.copied) this.parts.push(this.s.slice(this.copied, from))
    if (insert !== '') this.parts.push(insert)
    this.copied = to
    this.changed = true
  }

  /**
   * Removes the markup s[from, to) with the `<` run just before it: `<<embed>embed>` must not become `<embed>`,
   * which would need another pass (and crafted nesting could need one pass per level).
   */
  remove (from: number, to: number): void {
    while (from > this.copied && this.s.charCodeAt(from - 1) === LT) from--
    this.replace(from, to)
  }

  finish (end: number): string {
    if (end > this.copied) this.parts.push(this.s.slice(this.copied, end))
    return this.parts.join('')
  }
}

function dropAttributes (s: string, out: Output, tag: Tag, limit: number): void {
  if (tag.drops == null) return
  for (const [from, to] of tag.drops) {
    // Keep the next attribute apart from whatever preceded the dropped one.
    const next = to < limit ? s.charCodeAt(to) : GT
    out.replace(from, to, isWhitespace(next) || next === SLASH || next === GT ? '' : ' ')
  }
}

/** Where the end tag of a raw-text element starts, as the tokenizer finds it; `limit` if there is none. */
function findEndTag (s: string, name: string, from: number, limit: number): number {
  let k = s.indexOf('</', from)
  while (k !== -1 && k + name.length + 2 < limit) {
    const after = s.charCodeAt(k + name.length + 2)
    if ((isWhitespace(after) || after === SLASH || after === GT) && s.slice(k + 2, k + 2 + name.length).toLowerCase() === name) return k
    k = s.indexOf('</', k + 2)
  }
  return limit
}

/** End of a comment whose `<!--` starts at `start`: [content end, comment end]. */
function findCommentEnd (s: string, start: number, limit: number): [number, number] {
  const from = start + 4
  if (s.charCodeAt(from) === GT) return [from, from + 1] // `<!-->`
  if (s.startsWith('->', from)) return [from, from + 2] // `<!--->`
  let k = s.indexOf('--', from)
  while (k !== -1 && k < limit) {
    if (s.charCodeAt(k + 2) === GT && k + 2 < limit) return [k, k + 3]
    if (s.startsWith('!>', k + 2) && k + 3 < limit) return [k, k + 4]
    k = s.indexOf('--', k + 1)
  }
  return [limit, limit]
}

/**
 * Text that a browser reads as text here but another context reads as markup: kept as it is when it has no
 * `<`, cleaned as markup when that is safe both ways, dropped otherwise.
 */
function cleanOpaque (s: string, out: Output, from: number, to: number): void {
  const lt = s.indexOf('<', from)
  if (lt === -1 || lt >= to) return
  const cleaned = scan(s, from, to, true)
  if (cleaned == null) out.replace(from, to)
  else if (cleaned.changed) out.replace(from, to, cleaned.text)
}

interface Scanned { text: string, changed: boolean }

/**
 * Sanitizes s[start, limit). `nested` scans the content of a comment or raw-text element as markup: anything
 * that could end out of step with the browser's reading (an unclosed tag, a comment, another raw-text element)
 * makes it return null, and the caller drops that content.
 */
function scan (s: string, start: number, limit: number, nested: boolean): Scanned | null {
  const out = new Output(s, start)
  let i = s.indexOf('<', start)
  while (i !== -1 && i + 1 < limit) {
    const c = s.charCodeAt(i + 1)
    let next: number
    if (isAsciiAlpha(c)) {
      const tag = readTag(s, i + 1, limit)
      next = tag.end
      if (nested && (!tag.closed || tag.kind === 'removed' || tag.kind === 'rawText')) return null
      if (tag.kind === 'removed') {
        const endTag = tag.closed ? findEndTag(s, tag.name, tag.end, limit) : limit
        next = endTag < limit ? readTag(s, endTag + 2, limit).end : limit
        out.remove(i, next)
      } else if (tag.kind === 'stripped') {
        out.remove(i, next)
      } else {
        dropAttributes(s, out, tag, limit)
        if (tag.closed && tag.kind === 'rawText') {
          // `<plaintext>` has no end tag: the rest of the input is its text.
          next = tag.name === 'plaintext' ? limit : findEndTag(s, tag.name, tag.end, limit)
          cleanOpaque(s, out, tag.end, next)
        }
      }
    } else if (c === SLASH) {
      const d = i + 2 < limit ? s.charCodeAt(i + 2) : -1
      if (isAsciiAlpha(d)) {
        const tag = readTag(s, i + 2, limit)
        if (nested && !tag.closed) return null
        if (tag.kind === 'removed' || tag.kind === 'stripped') out.remove(i, tag.end)
        else dropAttributes(s, out, tag, limit)
        next = tag.end
      } else if (d === -1 || d === GT) {
        next = i + 2 // `</` at the end is text; `</>` is ignored by browsers
      } else {
        next = bogusComment(s, out, i + 2, limit, nested)
      }
    } else if (c === 33) { // `<!`
      if (s.startsWith('<!--', i)) {
        if (nested) return null
        const [contentEnd, end] = findCommentEnd(s, i, limit)
        cleanOpaque(s, out, i + 4, contentEnd)
        next = end
      } else if (s.slice(i + 2, i + 9).toUpperCase() === '[CDATA[') {
        // A bogus comment to the first `>` in HTML, text up to `]]>` inside <svg>: drop the whole span.
        if (nested) return null
        const close = s.indexOf(']]>', i + 9)
        next = close === -1 || close + 3 > limit ? limit : close + 3
        out.remove(i, next)
      } else {
        next = bogusComment(s, out, i + 2, limit, nested)
      }
    } else if (c === 63) { // `<?`
      next = bogusComment(s, out, i + 1, limit, nested)
    } else {
      next = i + 1 // `a < b`, `<3`: text
    }
    if (next === -1) return null
    i = s.indexOf('<', next)
  }
  return { text: out.finish(limit), changed: out.changed }
}

/** A bogus comment (`<!x>`, `<?x>`, `</1>`) runs to the first `>`. Returns where scanning goes on, -1 to give up. */
function bogusComment (s: string, out: Output, from: number, limit: number, nested: boolean): number {
  const gt = s.indexOf('>', from)
  const contentEnd = gt === -1 || gt >= limit ? limit : gt
  if (nested) {
    const lt = s.indexOf('<', from)
    return contentEnd === limit || (lt !== -1 && lt < contentEnd) ? -1 : contentEnd + 1
  }
  cleanOpaque(s, out, from, contentEnd)
  return contentEnd === limit ? limit : contentEnd + 1
}

export function sanitizeString (input: string): string {
  if (!input.includes('<')) return input
  let current = input
  // Repeat until stable, so removing one piece cannot assemble another (`<<script>x</script>script>`).
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const result = scan(current, 0, current.length, false)
    if (result == null || !result.changed) return current
    current = result.text
  }
  // Still changing after this many passes: only crafted input gets here; leave it no markup at all.
  return current.replaceAll('<', '')
}

/** NUL bytes and lone surrogates are refused, never stored (PostgreSQL rejects them in text and jsonb). */
export function hasInvalidCharacters (value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed()
}
