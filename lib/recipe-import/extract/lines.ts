// Turning lists of lines into ingredients (with groups) and steps (with sections), shared by every source.
import { cleanLines, LIMITS, truncate } from './clean.js'
import type { RawIngredient, RawStep } from './types.js'

/** A line worth keeping has a letter or a digit: "[{", "*" or "—" alone are debris. */
const HAS_WORD = /[\p{L}\p{N}]/u

/** Unicode bullets, or ASCII ones followed by a space ("**bold**" and "-5 °C" are not bullets). */
const BULLET = /^(?:[•▪▫▢☐◦●○■□✓✔➤►▶→⁃]+\s*|[-–—*·]+\s+)/

/** A line that starts with a number or a fraction character ("2 eggs", "½ cup milk"). */
export function startsWithQuantity (line: string): boolean {
  return /^[\d½¼¾⅓⅔⅛⅜⅝⅞]/.test(line)
}

/** A line that starts with a quantity or a written bullet ("2 eggs", "½ cup milk", "• salt"): an ingredient's shape. */
export function startsLikeIngredient (line: string): boolean {
  return startsWithQuantity(line) || BULLET.test(line)
}

/** Removes a list bullet written into the text ("- 300 g", "• salt", "▢ 1 cup"). */
export function stripBullet (line: string): string {
  const stripped = line.replace(BULLET, '')
  return stripped === '' ? line : stripped
}

const GROUP_PREFIX = /^(?:for (?:the )?|für (?:den |die |das )?|pour (?:la |le |les |l['’])?|per (?:il |la |le |i )?|para (?:el |la |los |las |o |a )?|voor (?:de |het )?)(?=\S)/i

/** The name of a group from its heading: "For the sauce:" -> "sauce", "Dough" -> "Dough". */
export function groupName (heading: string): string {
  const name = heading.trim().replace(/\s*[:：]$/, '').trim()
  const stripped = name.replace(GROUP_PREFIX, '')
  return truncate(stripped === '' ? name : stripped, LIMITS.section)
}

/** "For the sauce:", "Dough:" — a line that names the lines below it rather than being one. */
export function groupHeader (line: string): string | null {
  if (line.length > 60 || /\d/.test(line) || !/\S\s*[:：]$/.test(line)) return null
  const name = groupName(line)
  return name === '' ? null : name
}

/** Ingredient lines with "For the sauce:" lines turned into the group of the lines that follow. */
export function ingredientsFromLines (lines: string[], initialGroup: string | null = null): RawIngredient[] {
  const out: RawIngredient[] = []
  let group = initialGroup
  for (const raw of lines) {
    const line = stripBullet(raw)
    if (!HAS_WORD.test(line)) continue
    const header = groupHeader(line)
    if (header != null) {
      group = header
      continue
    }
    out.push({ text: line, group })
    if (out.length >= LIMITS.ingredients) break
  }
  return out
}

const NUMBERING = /^(?:(?:step|schritt|étape|etape|passo|paso|stap|trin|steg|krok)\s*)?\d{1,2}\s*(?:[.):]|-(?=\s))\s*(?=\S)/i
/** A number set in a block of its own, glued to the step's first word: "1Wash the vegetables." (not "1st"). */
const GLUED_NUMBER = /^\d{1,2}(?=\p{Lu}\p{Ll})/u
const STEP_WORD_ONLY = /^(?:step|schritt|étape|etape|passo|paso|stap|trin|steg|krok)\s*\d{1,2}\s*[.:]?$/i

/** Removes "1.", "2)", "Step 3:" numbering from the start of a step (the preview numbers steps itself). */
export function stripNumbering (text: string): string {
  const stripped = text.replace(NUMBERING, '').replace(GLUED_NUMBER, '')
  return stripped === '' ? text : stripped
}

/**
 * Splits one paragraph holding numbered steps ("1. Mix. 2. Bake.") at its numbers, when they run 1, 2, 3...
 * Returns the paragraph itself otherwise.
 */
export function splitNumbered (text: string): string[] {
  const marker = /(?:^|\s)(?:(?:step|schritt|étape|passo|paso|stap)\s*)?(\d{1,2})[.)]\s+/gi
  const cuts: Array<{ start: number, end: number }> = []
  let expected = 1
  for (let m = marker.exec(text); m != null; m = marker.exec(text)) {
    if (Number(m[1]) !== expected) continue
    cuts.push({ start: m.index, end: m.index + m[0].length })
    expected++
    if (cuts.length >= LIMITS.steps) break
  }
  if (cuts.length < 2 || text.slice(0, cuts[0].start).trim().length > 0) return [text]
  const parts: string[] = []
  for (let i = 0; i < cuts.length; i++) {
    const part = text.slice(cuts[i].end, i + 1 < cuts.length ? cuts[i + 1].start : text.length).trim()
    if (part !== '') parts.push(part)
  }
  return parts
}

/** Steps from lines: numbering removed, "For the sauce:" and "Step 1" lines becoming sections or dropped. */
export function stepsFromLines (lines: string[], initialSection?: string): RawStep[] {
  const out: RawStep[] = []
  let section = initialSection
  const expanded = lines.length === 1 ? splitNumbered(lines[0]) : lines
  for (let i = 0; i < expanded.length && out.length < LIMITS.steps; i++) {
    const line = stripBullet(expanded[i].trim())
    if (!HAS_WORD.test(line) || STEP_WORD_ONLY.test(line)) continue
    const header = i < expanded.length - 1 ? groupHeader(line) : null
    if (header != null && line.length <= 40) {
      section = header
      continue
    }
    const text = stripNumbering(line)
    out.push(section == null ? { text } : { text, section })
  }
  return out
}

/** Steps from text that may carry markup or newlines. */
export function stepsFromText (text: string, section?: string): RawStep[] {
  return stepsFromLines(cleanLines(text, LIMITS.steps * 2), section)
}
