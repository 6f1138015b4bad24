// Times and yields the page writes as labels ("Prep Time: 10 mins", "Serves 4"), read from its lines.
import { parseDuration, parseYield } from './clean.js'
import type { RawRecipe } from './types.js'
import type { Line } from './page-lines.js'

const TIME_LABEL = /^(total(?: time)?|ready in|prep(?:aration)?(?: time)?|cook(?:ing)?(?: time)?|bake(?: time)?|baking time|gesamtzeit|zubereitungszeit|zubereitung|arbeitszeit|vorbereitungszeit|kochzeit|backzeit|garzeit|temps total|temps de préparation|préparation|temps de cuisson|cuisson|tempo totale|tempo di preparazione|preparazione|tempo di cottura|cottura|tiempo total|tiempo de preparación|preparación|tiempo de cocción|cocción|tempo de preparo|tempo total|tijd|totale tijd|bereidingstijd|bereiding|kooktijd|tid|total tid|tilberedningstid)\s*:?\s*(.*)$/i
const PREP_LABEL = /^(?:prep|zubereitung|arbeitszeit|vorbereitung|temps de pr|préparation|tempo di prep|preparazione|tiempo de prep|preparación|tempo de prep|bereiding)/
const COOK_LABEL = /^(?:cook|bake|baking|kochzeit|backzeit|garzeit|temps de cuisson|cuisson|tempo di cottura|cottura|tiempo de cocc|cocción|kooktijd|tilberedning)/
const YIELD_LABEL = /^(?:serves|servings?|yields?|makes|portions?|porties|portionen|personen|personnes|porzioni|raciones|porciones|porções|porsjoner|portioner|für)\s*:?\s*(.*)$/i
const YIELD_VALUE = /^(?:(?:for|für|pour|per|para|voor)\s+)?(\d+(?:\s*(?:-|–|to|à|a|bis|tot|til|do)\s*\d+)?)\s+(?:servings?|portions?|people|persons?|personnes|personen|portionen|porzioni|porciones|porções|porsjoner|portioner|porties|pers\.?)\s*:?$/i
/** A duration alone ("30 Min", "1 Std 10 Min", "ca. 50 Minuten"): the value of a time label set apart. */
const DURATION_ONLY = /^(?:(?:ca|approx|env|about|circa)\.?\s*)?\d{1,3}\s*(?:min|mins|minuten|minutes|minutos|minuti|std|stunden?|h|hrs?|hours?|heures?|ore|horas?)\.?(?:\s*\d{1,3}\s*(?:min|mins|minuten|minutes|minutos|minuti)\.?)?$/i
/** The words of a servings selector around its number ("Für" [-] 4 [+] "Portionen"), each a line of its own. */
const YIELD_WORD = /^(?:für|for|pour|voor|per|para|servings?|portions?|portionen|porsjoner|portioner|porties|personen|personnes|persone|porzioni|porciones|porções|people|pers\.?|stück|stk\.?|serves|yields?|makes)\s*:?$/i
/** What follows a time label: a colon, or a number right away. */
const LABEL_VALUE = /^\s*(?::|\d|[½¼¾])/
const SHORT_VALUE = /^\d{1,3}(?:\s*(?:min|mins|minutes|h|hr|hrs|hours?))?\.?$/i

/** "Prep Time: 10 mins", "Cuisson 1h10", "Serves 4", "6 personnes": a line of the recipe's summary. */
export function isTimeOrYield (text: string): boolean {
  if (text.length > 50) return false
  if (YIELD_WORD.test(text) || DURATION_ONLY.test(text)) return true
  // A label whose value is the next line ("Garzeit:" over "40 Min").
  const bare = TIME_LABEL.exec(text)
  if (bare != null && /^\s*:\s*$/.test(text.slice(bare[1].length))) return true
  const time = TIME_LABEL.exec(text)
  if (time != null && LABEL_VALUE.test(text.slice(time[1].length)) && parseDuration(time[2]) != null) return true
  if (YIELD_VALUE.test(text)) return true
  const labelled = YIELD_LABEL.exec(text)
  return labelled != null && /^\d/.test(labelled[1])
}

/** Times and yields written as labels near each other ("Prep Time: 10 mins", "10" + "Prep Time", "Serves 4"). */
export function labelled (lines: Line[], from: number, to: number): Partial<RawRecipe> {
  const out: Partial<RawRecipe> = {}
  // "Serves 2-4 | Prep 10 min | Cook 25 min" is three labels.
  const texts: string[] = []
  for (let i = Math.max(0, from); i < Math.min(lines.length, to); i++) {
    const text = lines[i].text
    if (text.length <= 160) texts.push(...text.split(/\s+[|•·]\s+/).map(t => t.trim()).filter(t => t !== ''))
    else texts.push('')
  }
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]
    if (text.length > 80) continue
    const time = TIME_LABEL.exec(text)
    if (time != null) {
      let minutes: number | null = null
      if (time[2] !== '') {
        // "Cook Time: 20 min", "Cuisson 1h10"; not "Bake blind for 15 minutes."
        minutes = time[2].length <= 40 && LABEL_VALUE.test(text.slice(time[1].length)) ? parseDuration(time[2]) : null
      } else {
        const next = texts[i + 1] ?? ''
        const previous = texts[i - 1] ?? ''
        minutes = next.length <= 40 ? parseDuration(next) : null
        if (minutes == null && SHORT_VALUE.test(previous)) minutes = parseDuration(previous)
      }
      if (minutes != null) {
        const label = time[1].toLowerCase()
        if (PREP_LABEL.test(label)) out.prepTime ??= minutes
        else if (COOK_LABEL.test(label)) out.cookTime ??= minutes
        else out.totalTime ??= minutes
      }
      continue
    }
    if (out.yields != null) continue
    const labelledYield = YIELD_LABEL.exec(text)
    const value = labelledYield == null
      ? (YIELD_VALUE.test(text) ? text : null)
      : (labelledYield[1] !== '' ? labelledYield[1] : (texts[i + 1] ?? ''))
    if (value != null && /\d/.test(value) && value.length <= 60) {
      const parsed = parseYield(value)
      if (parsed != null && parsed.servings != null) {
        out.yields = parsed.yields
        out.servings = parsed.servings
      }
    }
  }
  return out
}
