// A subtitle file (WebVTT) as plain text: cue text only, without the header, notes, styles, cue ids, timings or
// inline tags (`<c>`, `<v Speaker>`, `<00:00:01.000>`), entities decoded, and a line repeated by the next cue (the
// rolling captions of speech recognition) kept once. One pass over the file; the text kept is bounded.
import { decodeHTML } from 'entities'
import { sanitizeString } from '../sanitize.js'

/** A subtitle file is fetched up to this size (larger: not used). */
export const SUBTITLE_MAX_BYTES = 512 * 1024
/** The plain text kept of one file. */
export const SUBTITLE_MAX_CHARS = 30_000
/** One cue line kept at most. */
const MAX_LINE = 1000

/** The text of a cue line without its tags, in one pass: `<` to the next `>` is dropped. */
function withoutTags (line: string): string {
  let out = ''
  let from = 0
  for (;;) {
    const open = line.indexOf('<', from)
    if (open < 0) return out + line.slice(from)
    out += line.slice(from, open)
    const close = line.indexOf('>', open + 1)
    if (close < 0) return out
    from = close + 1
  }
}

const squash = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim()

/** The spoken text of a WebVTT file, one line per cue line, consecutive repeats dropped; '' when it holds none. */
export function webVttText (input: string, maxChars = SUBTITLE_MAX_CHARS): string {
  const text = input.length > SUBTITLE_MAX_BYTES ? input.slice(0, SUBTITLE_MAX_BYTES) : input
  const out: string[] = []
  let size = 0
  let last: string | null = null
  /** Inside a cue's text (after its timing line, until a blank line). */
  let inCue = false
  for (let start = 0; start <= text.length && size < maxChars;) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const raw = text.slice(start, Math.min(end, start + 4 * MAX_LINE)).replace(/\r$/, '')
    start = end + 1
    if (raw.trim() === '') {
      inCue = false
      continue
    }
    if (raw.includes('-->')) {
      // A timing line opens a cue; the line before it, if any, was the cue's id (never kept: only cue text is).
      inCue = true
      continue
    }
    if (!inCue) continue // WEBVTT header, NOTE, STYLE and REGION blocks, cue ids
    const line = squash(decodeHTML(withoutTags(raw))).slice(0, MAX_LINE)
    if (line === '' || line === last) continue
    last = line
    out.push(line)
    size += line.length + 1
  }
  // Tags are gone; entities decoded may have made new ones ("&lt;script&gt;"): the body sanitizer, as for any text.
  return sanitizeString(out.join('\n').slice(0, maxChars))
}
