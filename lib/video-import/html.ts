// The few things the video import reads out of a platform's page, found without an HTML parser in passes linear in
// the page: a script element's text by its id, a JSON object assigned in a script (`var x = {...};`), and the meta
// tags (OpenGraph, Twitter cards, description). Every search moves forward only; a tag is read only when it is short.
import { decodeHTML } from 'entities'

/** A page is read up to this many characters (the fetch is capped at 5 MB too; a captured page may be as large). */
export const MAX_PAGE_CHARS = 5 * 1024 * 1024
/** A tag longer than this is skipped, not read. */
const MAX_TAG_CHARS = 8192
/** Meta tags read at most. */
const MAX_META = 400

/** The text of the `<script>` element with this id (`__UNIVERSAL_DATA_FOR_REHYDRATION__`), or null. */
export function scriptById (html: string, id: string): string | null {
  const page = html.length > MAX_PAGE_CHARS ? html.slice(0, MAX_PAGE_CHARS) : html
  for (let from = 0; ;) {
    const open = page.indexOf('<script', from)
    if (open < 0) return null
    const end = page.indexOf('>', open)
    if (end < 0) return null
    from = end + 1
    if (end - open > MAX_TAG_CHARS) continue
    const attrs = attributes(page.slice(open + '<script'.length, end))
    const close = page.indexOf('</script', end)
    if (attrs.get('id') === id) return page.slice(end + 1, close < 0 ? page.length : close)
    // Never search inside a script's text for tags.
    if (close < 0) return null
    from = close
  }
}

/**
 * The JSON object a script assigns to `name` (`var ytInitialPlayerResponse = {...};`, `window["x"] = {...}`), as
 * text, or null. Each occurrence of the name is looked at in constant time (`x = null` is passed over); the first
 * assignment of an object is the answer, its end found in one pass.
 */
export function assignedObject (html: string, name: string): string | null {
  const page = html.length > MAX_PAGE_CHARS ? html.slice(0, MAX_PAGE_CHARS) : html
  for (let from = 0; ;) {
    const at = page.indexOf(name, from)
    if (at < 0) return null
    from = at + name.length
    let i = from
    // `name = {`, `name={`, `"name"] = {`
    if (page[i] === '"' || page[i] === '\'') i++
    if (page[i] === ']') i++
    while (page[i] === ' ') i++
    if (page[i] !== '=') continue
    i++
    while (page[i] === ' ' || page[i] === '\n') i++
    if (page[i] !== '{') continue
    // An object that never closes ends the search: another scan from a later occurrence would cover the same text again.
    const end = objectEnd(page, i)
    return end < 0 ? null : page.slice(i, end)
  }
}

/**
 * Where the JSON object opening at `start` closes (the index after its `}`), or -1: braces are counted outside
 * strings, escapes respected. One pass, at most to the end of the text.
 */
export function objectEnd (text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b) {
      depth++
    } else if (c === 0x7d) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** The meta tags' values by `property` or `name` (lower case; the first of each wins), and the page's `<title>`. */
export function pageMeta (html: string): { meta: Map<string, string>, title: string | null } {
  const page = html.length > MAX_PAGE_CHARS ? html.slice(0, MAX_PAGE_CHARS) : html
  const meta = new Map<string, string>()
  let read = 0
  for (let from = 0; read < MAX_META;) {
    const open = page.indexOf('<meta', from)
    if (open < 0) break
    const end = page.indexOf('>', open)
    if (end < 0) break
    from = end + 1
    if (end - open > MAX_TAG_CHARS) continue
    read++
    const attrs = attributes(page.slice(open + '<meta'.length, end))
    const key = (attrs.get('property') ?? attrs.get('name') ?? attrs.get('itemprop'))?.toLowerCase()
    const content = attrs.get('content')
    if (key != null && content != null && !meta.has(key)) meta.set(key, content)
  }
  const titleOpen = page.indexOf('<title')
  const titleStart = titleOpen < 0 ? -1 : page.indexOf('>', titleOpen)
  const titleEnd = titleStart < 0 ? -1 : page.indexOf('</title', titleStart)
  const title = titleEnd < 0 || titleEnd - titleStart > MAX_TAG_CHARS ? null : decodeHTML(page.slice(titleStart + 1, titleEnd)).trim()
  return { meta, title: title === '' ? null : title }
}

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '/'

/** A tag's attributes (names lower case, values entity-decoded), read in one pass over the tag's text. */
export function attributes (tag: string): Map<string, string> {
  const out = new Map<string, string>()
  let i = 0
  while (i < tag.length) {
    while (i < tag.length && isSpace(tag[i])) i++
    const nameStart = i
    while (i < tag.length && !isSpace(tag[i]) && tag[i] !== '=' && tag[i] !== '>') i++
    const name = tag.slice(nameStart, i).toLowerCase()
    if (name === '') {
      i++
      continue
    }
    while (i < tag.length && isSpace(tag[i]) && tag[i] !== '/') i++
    if (tag[i] !== '=') {
      if (!out.has(name)) out.set(name, '')
      continue
    }
    i++
    while (i < tag.length && isSpace(tag[i]) && tag[i] !== '/') i++
    let value: string
    const quote = tag[i]
    if (quote === '"' || quote === '\'') {
      const close = tag.indexOf(quote, i + 1)
      const stop = close < 0 ? tag.length : close
      value = tag.slice(i + 1, stop)
      i = stop + 1
    } else {
      const start = i
      while (i < tag.length && tag[i] !== ' ' && tag[i] !== '\n' && tag[i] !== '\t' && tag[i] !== '>') i++
      value = tag.slice(start, i)
    }
    if (!out.has(name)) out.set(name, decodeHTML(value))
  }
  return out
}
