// Text cleaning for the recipe extractor: entities, tags, whitespace, durations, yields and image URLs.
// Every function is linear in its input (no backtracking-prone patterns) and bounds what it returns.
import { decodeHTML } from 'entities'

export const LIMITS = {
  title: 200,
  description: 2000,
  line: 1000,
  ingredients: 200,
  steps: 200,
  section: 200,
  tags: 30,
  tag: 60,
  short: 200,
  nutrition: 30,
  nutritionValue: 100,
  language: 35,
  url: 2048
} as const

/** Tags that end a line when text carrying markup is split into lines. */
const BLOCK_TAG = /<\/?(?:br|p|div|li|ol|ul|h[1-6]|tr|td|section|article|blockquote|dd|dt|hr)\b[^<>]*>/gi
/**
 * Anything that looks like a tag or a comment. `[^<>]*` stops at the next bracket and no two repetitions are adjacent,
 * so a match attempt never backtracks (a page of "<      " stays linear).
 */
const TAG = /<[/!?]?[a-zA-Z][^<>]*>|<!--[^<>]*-->/g
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g
const SPACES = /[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g

/** Decodes HTML entities until the text no longer changes (pages double-encode: `&amp;amp;`). */
export function decodeEntities (text: string): string {
  let current = text
  for (let i = 0; i < 5 && current.includes('&'); i++) {
    const next = decodeHTML(current)
    if (next === current) break
    current = next
  }
  return current
}

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair, then trims. */
export function truncate (text: string, max: number): string {
  if (text.length <= max) return text
  let cut = text.slice(0, max)
  const last = cut.charCodeAt(cut.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1)
  return cut.trimEnd()
}

function decodeAndStrip (text: string, blockSeparator: string): string {
  let current = text
  for (let i = 0; i < 4; i++) {
    // Inline tags vanish as they do when the page is shown ("Mix <b>well</b>." reads "Mix well.").
    const next = decodeEntities(current).replace(BLOCK_TAG, blockSeparator).replace(TAG, '')
    if (next === current) break
    current = next
  }
  return current
}

/** One line of plain text: entities decoded, tags stripped, whitespace collapsed, at most `max` characters. */
export function cleanText (value: unknown, max: number = LIMITS.line): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value === '') return ''
  // Bound the work on hostile input before any pass over it: a line is never longer than this anyway.
  const input = value.length > max * 8 + 1000 ? value.slice(0, max * 8 + 1000) : value
  return truncate(decodeAndStrip(input, ' ').replace(INVISIBLE, '').replace(SPACES, ' ').trim(), max)
}

/** Text with markup split into its lines (block tags and newlines), each cleaned; empty lines dropped. */
export function cleanLines (value: unknown, maxLines: number, maxLine: number = LIMITS.line): string[] {
  if (typeof value !== 'string' || value === '') return []
  const input = value.length > maxLines * maxLine * 2 ? value.slice(0, maxLines * maxLine * 2) : value
  const out: string[] = []
  for (const raw of decodeAndStrip(input, '\n').split(/\r\n|[\n\r\u2028\u2029]/)) {
    const line = truncate(raw.replace(INVISIBLE, '').replace(SPACES, ' ').trim(), maxLine)
    if (line !== '') out.push(line)
    if (out.length >= maxLines) break
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// Durations

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`
const ISO_DURATION = new RegExp(
  `^P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`, 'i'
)
const MAX_MINUTES = 60 * 24 * 365
const VULGAR: Record<string, number> = { '½': 0.5, '¼': 0.25, '¾': 0.75, '⅓': 1 / 3, '⅔': 2 / 3 }

const num = (text: string | undefined): number => text == null ? 0 : Number(text.replace(',', '.'))

function minutesOrNull (minutes: number): number | null {
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_MINUTES) return null
  return Math.round(minutes)
}

/** Unit of a word following a number in a written duration: days, hours, minutes or seconds. */
function durationUnit (word: string): number | null {
  const w = word.toLowerCase()
  if (/^(?:d|days?|dagen?|dage|dager|tage?n?|jours?|j|giorn[oi]|d[ií]as?|dni|dzie[nń])$/.test(w)) return 1440
  if (/^(?:h|hs|hrs?|hours?|std|stdn?|stunden?|heures?|ore|ora|horas?|uur|u|timer?|tim|godz(?:in[ay]?)?|hod(?:in[ay]?)?|óra)\.?$/.test(w)) return 60
  if (/^(?:m|mins?|minutes?|minuten?|minuti|minutos?|minut(?:er|ter|y|e)?|perc|mn)\.?$/.test(w)) return 1
  if (/^(?:s|secs?|seconds?|sekunden?|secondes?|secondi|segundos?)\.?$/.test(w)) return 1 / 60
  return null
}

/**
 * Minutes from an ISO 8601 duration (PT1H30M, P0DT0H45M, PT90M, PT1H30M0S), a written one ("1 hr 30 mins",
 * "1 hour 15 minutes", "45 min", "1h30", "1:30") or a number of minutes; null when unknown or zero.
 */
export function parseDuration (value: unknown): number | null {
  if (typeof value === 'number') return minutesOrNull(value)
  if (Array.isArray(value)) return parseDuration(value[0])
  if (value != null && typeof value === 'object') {
    const o = value as Record<string, unknown>
    return parseDuration(o['@value'] ?? o.value ?? o.duration)
  }
  if (typeof value !== 'string') return null
  const text = decodeEntities(value).trim().slice(0, 100)
  if (text === '') return null
  const compact = text.replace(/\s+/g, '')
  const iso = ISO_DURATION.exec(compact)
  if (iso != null && compact.length > 1) {
    const [, years, months, weeks, days, hours, minutes, seconds] = iso
    return minutesOrNull(num(years) * 525600 + num(months) * 43200 + num(weeks) * 10080 + num(days) * 1440 +
      num(hours) * 60 + num(minutes) + num(seconds) / 60)
  }
  const clock = /^(\d{1,3}):(\d{2})(?::\d{2})?$/.exec(compact)
  if (clock != null) return minutesOrNull(num(clock[1]) * 60 + num(clock[2]))
  if (/^\d+(?:[.,]\d+)?$/.test(compact)) return minutesOrNull(num(compact))

  // Written: number + unit pairs. A bare number after hours is minutes ("1h30", "1 Std. 20").
  const normalised = text.replace(/(\d)\s*([½¼¾⅓⅔])/g, (_, d: string, f: string) => String(Number(d) + VULGAR[f]))
    .replace(/[½¼¾⅓⅔]/g, f => String(VULGAR[f]))
  const pair = /(\d+(?:[.,]\d+)?)\s*([a-zA-ZÀ-ž]+\.?)?/g
  let total = 0
  let found = false
  let lastUnit: number | null = null
  for (let m = pair.exec(normalised); m != null; m = pair.exec(normalised)) {
    const amount = num(m[1])
    const unit = m[2] == null ? null : durationUnit(m[2])
    if (unit != null) {
      total += amount * unit
      lastUnit = unit
      found = true
    } else if (m[2] == null && lastUnit === 60) {
      total += amount
      lastUnit = 1
    } else if (m[2] == null && lastUnit == null && !found) {
      // "20-25 min": the first number of a range takes the unit of the second.
      const rest = normalised.slice(pair.lastIndex)
      const range = /^\s*(?:-|–|to|bis|à|a)\s*\d+(?:[.,]\d+)?\s*([a-zA-ZÀ-ž]+\.?)/.exec(rest)
      const rangeUnit = range == null ? null : durationUnit(range[1])
      if (rangeUnit != null) {
        total += amount * rangeUnit
        found = true
        // Skip the range's upper end.
        pair.lastIndex += range![0].length
        lastUnit = rangeUnit
      }
    }
  }
  return found ? minutesOrNull(total) : null
}

// ---------------------------------------------------------------------------------------------------------------
// Yields

const NUMBER_WORDS = new Map<string, number>(
  ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']
    .map((word, i): [string, number] => [word, i + 1]).concat([['dozen', 12]])
)

/** The first number in a text: "4-6 servings" -> 4, "Serves 2,5" -> 2.5, "½ loaf" -> 0.5, "Serves four" -> 4. */
export function firstNumber (text: string): number | null {
  const m = /(\d+(?:[.,]\d+)?)(?:\s*\/\s*(\d+))?|([½¼¾⅓⅔])/.exec(text)
  if (m != null) {
    if (m[3] != null) return VULGAR[m[3]]
    const whole = num(m[1])
    if (m[2] != null && Number(m[2]) > 0) return whole / Number(m[2])
    return whole
  }
  const word = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b/i.exec(text)
  return word == null ? null : (NUMBER_WORDS.get(word[1].toLowerCase()) ?? null)
}

function yieldText (value: unknown): string {
  if (value != null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>
    const amount = cleanText(o.value ?? o['@value'], LIMITS.short)
    const unit = cleanText(o.unitText ?? o.unitCode, LIMITS.short)
    return [amount, unit].filter(s => s !== '').join(' ')
  }
  return cleanText(value, LIMITS.short)
}

/** `recipeYield` as text and servings: 4 -> "4 servings", ["4", "4 cookies"] -> "4 cookies", "Serves 4" -> 4. */
export function parseYield (value: unknown): { yields: string, servings: number | null } | null {
  const texts = (Array.isArray(value) ? value.slice(0, 20) : [value]).map(yieldText).filter(t => t !== '')
  if (texts.length === 0) return null
  // Prefer a text that says what the number counts ("24 cookies") over a bare number.
  const chosen = texts.find(t => /\d/.test(t) && /\p{L}{2}/u.test(t)) ?? texts.find(t => /\d/.test(t)) ?? texts[0]
  const servings = firstNumber(chosen)
  const bare = /^\d+(?:[.,]\d+)?$/.test(chosen)
  const yields = bare && servings != null ? `${chosen} ${servings === 1 ? 'serving' : 'servings'}` : chosen
  return { yields, servings: servings != null && servings > 0 && servings < 10000 ? servings : null }
}

// ---------------------------------------------------------------------------------------------------------------
// URLs and images

/** An absolute http(s) URL from `value` resolved against `base`, or null. */
export function absoluteUrl (value: unknown, base: URL | null): string | null {
  if (typeof value !== 'string') return null
  const text = decodeEntities(value).trim()
  if (text === '' || text.length > LIMITS.url || /^(?:data|javascript|blob):/i.test(text)) return null
  try {
    const url = base == null ? new URL(text) : new URL(text, base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    const href = url.href
    return href.length > LIMITS.url ? null : href
  } catch {
    return null
  }
}

/** An image in any schema.org shape (string, array, ImageObject with url/contentUrl) as one absolute URL. */
export function resolveImage (value: unknown, base: URL | null, depth = 0): string | null {
  if (value == null || depth > 4) return null
  if (typeof value === 'string') {
    // A srcset-like "a.jpg 1x, b.jpg 2x" or a comma-free URL with a width descriptor.
    const first = value.trim().split(/\s+/)[0] ?? ''
    return absoluteUrl(first, base)
  }
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 20)) {
      const url = resolveImage(item, base, depth + 1)
      if (url != null) return url
    }
    return null
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    return resolveImage(o.url, base, depth + 1) ?? resolveImage(o.contentUrl, base, depth + 1) ??
      resolveImage(o.thumbnailUrl, base, depth + 1)
  }
  return null
}
