// HTML parsers spend time proportional to the depth of open elements on every tag, so a page of 200,000 nested
// <div>s (1 MB) or of tags closing nothing takes minutes to parse. This linear pass bounds the nesting before the
// parser sees the page: opening tags beyond `maxDepth` open elements, and closing tags that close nothing, are
// removed (their text stays). Ordinary pages come back unchanged.

const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'image'])
/** Elements whose end tag may be omitted: the parser closes them itself, so they are not counted. */
const OPTIONAL_END = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'rb', 'rt', 'rp', 'rtc',
  'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'html', 'head', 'body'])
/** Elements whose content is text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes'])

const TAG_START = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y

export function boundNesting (html: string, maxDepth = 100): string {
  const stack: string[] = []
  const open = new Map<string, number>()
  const dropped = new Map<string, number>()
  const cuts: Array<[number, number]> = []
  const n = html.length
  let nextGt = -1
  let i = html.indexOf('<')
  while (i >= 0 && i < n) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4)
      if (end < 0) break
      i = html.indexOf('<', end + 3)
      continue
    }
    TAG_START.lastIndex = i
    const m = TAG_START.exec(html)
    if (m == null) {
      i = html.indexOf('<', i + 1)
      continue
    }
    // The end of the tag: the next ">" (found once and reused, so a page of "<a<a<a..." stays linear).
    if (nextGt < i) nextGt = html.indexOf('>', i)
    if (nextGt < 0) break
    const nextLt = html.indexOf('<', i + 1)
    if (nextLt >= 0 && nextLt < nextGt) {
      // "<a<b>": not a tag the parser would end here; move on.
      i = nextLt
      continue
    }
    const end = nextGt + 1
    const closing = m[1] === '/'
    const name = m[2].toLowerCase()
    if (!closing) {
      const selfClosing = html[nextGt - 1] === '/'
      if (RAW_TEXT.has(name) && !selfClosing) {
        const close = new RegExp(`</${name}`, 'gi')
        close.lastIndex = end
        const found = close.exec(html)
        // Past the end tag, which is not counted either.
        i = found == null ? -1 : html.indexOf('<', found.index + 2)
        continue
      }
      if (!VOID.has(name) && !OPTIONAL_END.has(name) && !selfClosing) {
        if (stack.length >= maxDepth) {
          cuts.push([i, end])
          dropped.set(name, (dropped.get(name) ?? 0) + 1)
        } else {
          stack.push(name)
          open.set(name, (open.get(name) ?? 0) + 1)
        }
      }
    } else if ((open.get(name) ?? 0) > 0) {
      // Closes the nearest open element of that name and everything opened inside it.
      for (;;) {
        const top = stack.pop()!
        open.set(top, open.get(top)! - 1)
        if (top === name) break
      }
    } else if (!VOID.has(name) && !OPTIONAL_END.has(name)) {
      const count = dropped.get(name) ?? 0
      if (count > 0) dropped.set(name, count - 1)
      // A closing tag that closes nothing is dropped either way.
      cuts.push([i, end])
    }
    i = html.indexOf('<', end)
  }
  if (cuts.length === 0) return html
  const parts: string[] = []
  let from = 0
  for (const [start, stop] of cuts) {
    parts.push(html.slice(from, start))
    from = stop
  }
  parts.push(html.slice(from))
  return parts.join('')
}
