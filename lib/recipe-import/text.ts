// Free text pasted by a user, or read from a photo by OCR, to the preview shape (decisions.md "Import").
// Sections are found by their headings ("Ingredients", "Für den Teig", "Method"...) or, without headings, by layout:
// quantity-led and bulleted lines are ingredients, numbered lines and sentences are steps. Everything is bounded: the
// input, each line, the lists; every pattern is anchored or sticky and free of nested repetition, so the whole parse
// is linear in the input.
import { parseIngredientLine } from '../ingredients.js'
import type { PreviewIngredient, PreviewStep, RecipePreview } from './preview.js'

export const TEXT_LIMITS = {
  /** Characters read (the routes cap their bodies at this). */
  chars: 50_000,
  /** Ingredients, and steps, kept. */
  items: 200,
  title: 200,
  description: 5000,
  step: 5000,
  /** An ingredient line (the recipe schema's `text`). */
  ingredient: 500,
  heading: 100
} as const

/** The title when the text has no line that reads like one. */
export const UNTITLED = 'Untitled recipe'

type Field = 'prepTime' | 'cookTime' | 'totalTime'

interface Meta {
  prepTime?: number
  cookTime?: number
  totalTime?: number
  servings?: number
  yields?: string
  /** The yield came from "Serves 4" / "4 servings" (wins over "Makes 24 cookies" for `servings`). */
  serves?: boolean
}

interface Heading {
  kind: 'ingredients' | 'steps' | 'notes' | 'nutrition'
  /** "Ingredients for the sauce" -> "For the sauce". */
  group: string | null
  /** Text after "Ingredients:" on the same line. */
  rest: string | null
  meta: Meta | null
  language: string | null
}

interface Line {
  text: string
  /** A blank line came before it (a paragraph break). */
  blankBefore: boolean
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary

const FRACTIONS = '¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞'

/** Heading words per kind, with the language they tell (null: shared by several). */
const HEADINGS: Array<[Heading['kind'], string | null, string[]]> = [
  ['ingredients', 'en', ['ingredients', 'ingredient list', 'ingredient', 'what you need', "what you'll need", 'what you will need', "you'll need", 'you will need', 'shopping list']],
  ['ingredients', 'de', ['zutaten', 'zutatenliste', 'einkaufsliste', 'das brauchen sie', 'das brauchst du']],
  ['ingredients', 'fr', ['ingrédients', 'ingredients', 'liste des ingrédients']],
  ['ingredients', 'es', ['ingredientes']],
  ['ingredients', 'it', ['ingredienti']],
  ['ingredients', 'nl', ['ingrediënten', 'ingredienten', 'benodigdheden']],
  ['steps', 'en', ['instructions', 'instruction', 'directions', 'direction', 'method', 'steps', 'step by step', 'preparation', 'procedure',
    'how to make it', 'how to make', 'how to prepare', 'how to cook', 'cooking instructions', 'cooking method']],
  ['steps', 'de', ['zubereitung', 'anleitung', 'zubereitungsschritte', 'arbeitsschritte', 'schritte', "so geht's", 'so gehts']],
  ['steps', 'fr', ['préparation', 'étapes', 'etapes', 'déroulement', 'marche à suivre', 'réalisation']],
  ['steps', 'es', ['preparación', 'preparacion', 'instrucciones', 'elaboración', 'elaboracion', 'pasos', 'modo de preparación', 'procedimiento']],
  ['steps', 'it', ['preparazione', 'procedimento', 'istruzioni', 'passaggi']],
  ['steps', 'nl', ['bereiding', 'bereidingswijze', 'werkwijze', 'instructies', 'stappen']],
  ['notes', null, ['notes', 'note', 'recipe notes', "cook's notes", 'cooks notes', 'tips', 'tip', 'tips and tricks', 'equipment', 'tools',
    'storage', 'variations', 'substitutions', 'make ahead', 'serving suggestions', 'hinweise', 'tipps', 'tipp', 'notizen', 'anmerkungen',
    'remarques', 'astuces', 'conseils', 'notas', 'consejos', 'consigli', 'opmerkingen']],
  ['nutrition', null, ['nutrition', 'nutrition facts', 'nutrition information', 'nutritional information', 'nutrition info',
    'nutrition per serving', 'nutritional values', 'nährwerte', 'nährwertangaben', 'valeurs nutritionnelles', 'información nutricional',
    'valori nutrizionali', 'voedingswaarde', 'voedingswaarden']]
]

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** keyword (lower case) -> [kind, language]. */
const HEADING_WORDS = new Map<string, [Heading['kind'], string | null]>()
for (const [kind, language, words] of HEADINGS) {
  for (const word of words) if (!HEADING_WORDS.has(word)) HEADING_WORDS.set(word, [kind, language])
}
// Longest first, so that "ingredient list" wins over "ingredient". OCR reads the capital I of "Ingredients" as l, 1 or |.
const HEADING = new RegExp(
  `^(${[...HEADING_WORDS.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')}|[il1|]ngr[eé]d[il1]ents?)(?:\\s+(.{1,60}))?$`,
  'iu'
)

/** Words that open a group heading: "For the sauce", "Für den Teig", "Pour la pâte", "Para la salsa", "Voor de saus". */
const FOR_PREFIX = /^(?:for|für|fur|pour|para|per|voor)\s+\p{L}/iu

/** Lines copied from recipe sites or page furniture that are never content. */
const JUNK = /^(?:print(?: recipe)?|pin(?: recipe)?|save(?: recipe)?|share|jump to recipe|rate this recipe|cook mode|prevent your screen from going dark|us customary(?: metric)?|metric(?: us customary)?|units|scale|advertisement|(?:\d(?:\/\d)?x\s*){2,}|page\s+\d{1,4}(?:\s+of\s+\d{1,4})?)$/i

/** Bullets, check boxes and the characters OCR makes of them ("e 2 cups" is "• 2 cups"). */
const BULLET = /^(?:[-–—•·∙◦○●▪▫■□▢☐☑✓✔➢➤►▶*+>~]+|\[[ xX]?\])\s*|^[eo°«»¢©®]\s+(?=[\d¼-¾⅐-⅞])/u

/** "1.", "1)", "(1)", "Step 1:", "Schritt 1", "1 - ", "1: ". Groups: the number. */
const NUMBERED = /^(?:(?:step|schritt|étape|etape|paso|passo|stap)\s*(\d{1,3})\b\s*[:.)\-–—]?\s*|\(?(\d{1,3})\s*[.)](?!\d)\s*|(\d{1,3})\s*[-–—:]\s+(?=\p{L}))/iu

/** A line made only of a step number: big step numbers often sit on their own line in print (and in OCR output). */
const LONE_NUMBER = /^(?:(?:step|schritt|étape|etape|paso|passo|stap)\s*)?\(?\d{1,3}\s*[.):]?$/iu

const QUANTITY_LED = new RegExp(
  `^(?:\\d|[${FRACTIONS}]|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a dozen|dozen|half a|half an|zwei|drei|vier|deux|trois|dos|tres|due|tre|twee|drie)\\s+(?!of\\b)|` +
  '(?:a|an|ein|eine|einen|un|une|una|uno|een)\\s+(?:pinch|dash|handful|few|couple|little|bunch|sprig|clove|cup|tablespoon|teaspoon|tbsp|tsp|knob|' +
  'splash|drizzle|small|medium|large|can|tin|jar|packet|pack|bag|box|piece|slice|stick|head|sheet|pound|lb|ounce|oz|pint|quart|litre|liter|' +
  'glass|squeeze|dollop|sprinkle|prise|msp|handvoll|bund|pincée|poignée|pizzico|pizzico di|manciata|pizca|puñado|snufje|handje|scheutje)\\b|' +
  '(?:pinch|dash|handful|juice|zest|prise|pincée|pizzico|pizca|snufje)\\s+(?:of|de|di|von|van)\\b)',
  'iu'
)

/** Digits that are not a quantity: temperatures, percentages, times of day, dates. */
const NOT_QUANTITY = /^\d{1,4}\s*(?:°|%|º|degrees)|^\d{1,2}[:.]\d{2}\s*(?:am|pm|uhr|h)\b|^\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/i

/** Words that say a line without a quantity is still an ingredient. */
const INGREDIENT_HINT = /\b(?:to taste|as needed|for serving|for garnish|to serve|for frying|for greasing|for dusting|optional|nach belieben|nach geschmack|au goût|al gusto|q\.?b\.?|naar smaak)\b/i

/** Imperative openings of method sentences (English): "Mix the flour..." is a step even when short. */
const STEP_VERB = new RegExp(
  '^(?:preheat|heat|mix|stir|add|combine|whisk|bake|cook|boil|simmer|pour|place|put|remove|serve|cut|chop|slice|dice|season|melt|bring|fry|' +
  'roast|grill|let|leave|cover|transfer|spread|sprinkle|beat|fold|knead|roll|drain|toss|blend|garnish|set|allow|cool|refrigerate|chill|' +
  'divide|shape|brush|sauté|saute|in a|in the|using|meanwhile|once|when|after|then|finally|first|next|start|prepare|make|wash|peel|rinse|' +
  'top|layer|line|grease|fill|arrange|turn|reduce|return|check|adjust|spoon|scoop|squeeze|drizzle|dust|warm|microwave|blitz|process|' +
  'puree|purée|mash|strain|sift|soak|marinate|rub|coat|dip|assemble|wrap|store|enjoy|repeat|continue|flip|stuff|press|pat|scatter|' +
  'crack|separate|zest|grate|mince|sear|brown|steam|poach|blanch|whip|cream|dissolve|wait|keep|take|use|pulse)\\b',
  'i'
)

const URL_LINE = /^(?:https?:\/\/|www\.)\S+$/i

// ---------------------------------------------------------------------------------------------------------------
// Times and yields

const DURATION_UNIT = '(hours?|hrs?\\.?|h|std\\.?|stunden?|heures?|horas?|ore|ora|uur|u|minutes?|mins?\\.?|m|minuten|minutos?|minuti|\')'
const NUMBER = `(\\d{1,3}\\s+\\d\\/\\d|\\d{0,3}\\s*[${FRACTIONS}]|\\d\\/\\d|\\d{1,4}(?:[.,]\\d{1,2})?)`
const DURATION_PART = new RegExp(`\\s*(?:and\\s+|und\\s+|et\\s+|y\\s+|e\\s+|en\\s+|,\\s*|\\+\\s*)?${NUMBER}(?:\\s*(?:-|–|to|bis|à|a)\\s*\\d{1,4}(?:[.,]\\d{1,2})?)?\\s*${DURATION_UNIT}(?!\\p{L})`, 'iuy')
const BARE_MINUTES = /\s*(\d{1,2})(?![\d\p{L}])/uy
const CLOCK = /\s*(\d{1,2}):(\d{2})(?!\d)/y

const VULGAR: Record<string, number> = { '¼': 0.25, '½': 0.5, '¾': 0.75, '⅓': 1 / 3, '⅔': 2 / 3, '⅛': 0.125, '⅜': 0.375, '⅝': 0.625, '⅞': 0.875, '⅕': 0.2, '⅖': 0.4, '⅗': 0.6, '⅘': 0.8, '⅙': 1 / 6, '⅚': 5 / 6, '⅐': 1 / 7, '⅑': 1 / 9, '⅒': 0.1 }

function numberValue (text: string): number {
  const s = text.trim()
  const mixed = /^(\d{1,3})\s+(\d)\/(\d)$/.exec(s)
  if (mixed != null) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3])
  const fraction = /^(\d)\/(\d)$/.exec(s)
  if (fraction != null) return Number(fraction[1]) / Number(fraction[2])
  const last = s[s.length - 1]
  if (VULGAR[last] != null) return (s.length > 1 ? Number(s.slice(0, -1).trim() || 0) : 0) + VULGAR[last]
  return Number(s.replace(',', '.'))
}

/** Reads "1 hr 10 mins", "1h30", "90 min", "1:30", "1 ½ hours", "10-15 min" (the first figure) at `start`. */
function readDuration (s: string, start: number): { minutes: number, end: number } | null {
  CLOCK.lastIndex = start
  const clock = CLOCK.exec(s)
  if (clock != null) return { minutes: Number(clock[1]) * 60 + Number(clock[2]), end: CLOCK.lastIndex }
  let minutes = 0
  let end = start
  let parts = 0
  let lastWasHours = false
  while (parts < 4) {
    DURATION_PART.lastIndex = end
    const part = DURATION_PART.exec(s)
    if (part == null) {
      if (lastWasHours) {
        BARE_MINUTES.lastIndex = end
        const bare = BARE_MINUTES.exec(s)
        if (bare != null) { minutes += Number(bare[1]); end = BARE_MINUTES.lastIndex }
      }
      break
    }
    const value = numberValue(part[1])
    if (!Number.isFinite(value)) break
    const unit = part[2].toLowerCase()
    lastWasHours = /^(?:h|std|stunde|heure|hora|ore|ora|uur|u$)/.test(unit)
    minutes += lastWasHours ? value * 60 : value
    end = DURATION_PART.lastIndex
    parts++
  }
  if (end === start) return null
  return { minutes: Math.min(Math.round(minutes), 100_000), end }
}

const TIME_LABEL = new RegExp(
  '(prep(?:aration)?|cook(?:ing)?|bak(?:e|ing)|total|active|hands[-\\s]on|inactive|rest(?:ing)?|chill(?:ing)?|marinating)(\\s+time)?' +
  '|(ready\\s+in|zubereitungszeit|vorbereitungszeit|arbeitszeit|kochzeit|backzeit|garzeit|gesamtzeit|ruhezeit|wartezeit|' +
  'temps\\s+de\\s+(?:préparation|preparation|cuisson|repos)|temps\\s+total|tiempo\\s+de\\s+(?:preparación|preparacion|cocción|coccion|reposo)|' +
  'tiempo\\s+total|tempo\\s+di\\s+(?:preparazione|cottura|riposo)|tempo\\s+totale|bereidingstijd|voorbereidingstijd|kooktijd|baktijd|' +
  'oventijd|totale\\s+tijd|wachttijd|rusttijd)' +
  '|(zubereitung|vorbereitung|préparation|cuisson|repos|preparación|cocción|preparazione|cottura|bereiding|totaal)',
  'iuy'
)
const LABEL_COLON = /\s*[:：=\-–]\s*|\s+/y

function timeField (label: string): Field | null {
  const l = label.toLowerCase()
  if (/inactive|rest|repos|chill|marinat|ruhe|warte|riposo|wacht|rust/.test(l)) return null
  if (/total|ready|gesamt|totaal/.test(l)) return 'totalTime'
  if (/cook|bak|koch|back|gar|cuisson|cocci|cott|kook|oven/.test(l)) return 'cookTime'
  return 'prepTime'
}

/** "Prep time: 15 min" at `start`: adds to meta, returns where it ends. Without "time" or a colon ("Cook 10 min"), only when `weakOk`. */
function readTime (s: string, start: number, meta: Meta, weakOk: boolean): number | null {
  TIME_LABEL.lastIndex = start
  const label = TIME_LABEL.exec(s)
  if (label == null) return null
  let pos = TIME_LABEL.lastIndex
  LABEL_COLON.lastIndex = pos
  const colon = LABEL_COLON.exec(s)
  if (colon == null) return null
  const strong = label[2] != null || label[3] != null || colon[0].trim() !== ''
  // One-word labels that are also headings ("Zubereitung") or verbs need the colon.
  if (label[4] != null && colon[0].trim() === '') return null
  if (!strong && !weakOk) return null
  pos = LABEL_COLON.lastIndex
  const duration = readDuration(s, pos)
  if (duration == null) return null
  const field = timeField(label[0])
  if (field != null && meta[field] == null) meta[field] = duration.minutes
  return duration.end
}

const PEOPLE = '(?:people|persons?|servings?|portions?|personen|portionen|personnes|personas|porciones|raciones|persone|porzioni|porties|pers\\.?)'
const RANGE = '(\\d{1,4}(?:\\s*(?:-|–|to|bis|à|a)\\s*\\d{1,4})?)'
const ABOUT = '(?:about\\s+|approx\\.?\\s+|approximately\\s+|around\\s+|ca\\.?\\s+|circa\\s+|environ\\s+|etwa\\s+)?'
const SERVES = new RegExp(
  `(?:serves|serving size|servings?|portions?|portionen|porciones|raciones|porzioni|porties|rations?|personen|persons|people|dosi per)\\s*[:：\\-–]?\\s*${ABOUT}${RANGE}(?:\\s+${PEOPLE}(?!\\p{L}))?` +
  `|(?:for|für|fur|pour|para|per|voor)\\s+${RANGE}\\s+${PEOPLE}(?!\\p{L})` +
  `|${RANGE}\\s+${PEOPLE}(?!\\p{L})`,
  'iuy'
)
const LABEL_WORDS = 'prep|cook|cooking|total|bake|baking|ready|serves|servings|makes|yield|yields|active|time'
const MAKES = new RegExp(
  `(?:makes|yields?|ergibt|rendement|rinde|rende|opbrengst|donne)\\s*[:：\\-–]?\\s*(${ABOUT}\\d{1,4}(?:\\s*(?:-|–|to)\\s*\\d{1,4})?(?:\\s+(?!(?:${LABEL_WORDS})\\b)[\\p{L}'’-]{1,24}){0,4})`,
  'iuy'
)

function readYield (s: string, start: number, meta: Meta): number | null {
  SERVES.lastIndex = start
  const serves = SERVES.exec(s)
  if (serves != null) {
    const range = (serves[1] ?? serves[2] ?? serves[3]).replace(/\s+/g, ' ')
    if (meta.serves !== true) {
      meta.servings = Number.parseInt(range, 10)
      meta.serves = true
    }
    meta.yields ??= `${range} servings`
    return SERVES.lastIndex
  }
  MAKES.lastIndex = start
  const makes = MAKES.exec(s)
  if (makes != null) {
    const value = makes[1].trim()
    meta.yields ??= value
    if (meta.servings == null) {
      const n = /\d{1,4}/.exec(value)
      if (n != null) meta.servings = Number(n[0])
    }
    return MAKES.lastIndex
  }
  return null
}

const META_SEPARATOR = /[\s|·•;,/()[\]*_.\-–—]*/y

/**
 * The times and yields of a line made only of them ("Prep: 15 min | Cook: 1 hr 10 mins | Serves 4"), or null when
 * anything else is on the line. `weakOk` accepts labels without a colon or "time" ("Cook 10 min").
 */
function metadataLine (line: string, weakOk: boolean): Meta | null {
  if (line.length > 200) return null
  const meta: Meta = {}
  let pos = 0
  let found = 0
  while (pos < line.length && found < 10) {
    META_SEPARATOR.lastIndex = pos
    META_SEPARATOR.exec(line)
    pos = META_SEPARATOR.lastIndex
    if (pos >= line.length) break
    const end = readTime(line, pos, meta, weakOk) ?? readYield(line, pos, meta)
    if (end == null || end <= pos) return null
    pos = end
    found++
  }
  return found > 0 && pos >= line.length ? meta : null
}

// ---------------------------------------------------------------------------------------------------------------
// Nutrition ("Calories: 240 kcal | Fat: 12 g"), kept as schema.org NutritionInformation properties.

const NUTRIENT = new RegExp(
  '(calories|calorie|kcal|energy|energie|énergie|kalorien|brennwert|saturated fat|sat\\.? fat|gesättigte fettsäuren|trans fat|total fat|fat|fett|' +
  'lipides|matières grasses|grasas|grassi|total carbohydrates?|carbohydrates?|carbs|kohlenhydrate|glucides|carbohidratos|carboidrati|' +
  'koolhydraten|sugars?|zucker|sucres|azúcares|zuccheri|suikers|dietary fib(?:er|re)|fib(?:er|re)s?|ballaststoffe|fibra|vezels|proteins?|' +
  'eiweiß|eiweiss|protéines|proteínas|proteine|eiwitten|sodium|natrium|sodio|cholesterol|cholesterin|salt|salz)' +
  '(\\s*[:：]\\s*|\\s+)(\\d{1,5}(?:[.,]\\d{1,2})?)\\s*(kcal|cal|kj|mg|µg|mcg|g)?(?!\\p{L})',
  'iuy'
)

function nutrientKey (label: string): string | null {
  const l = label.toLowerCase()
  if (/^(?:calor|kcal|energ|énerg|kalorien|brennwert)/.test(l)) return 'calories'
  if (/sat|gesättigt/.test(l)) return 'saturatedFatContent'
  if (/trans/.test(l)) return 'transFatContent'
  if (/fat|fett|lipides|grasse|grasas|grassi/.test(l)) return 'fatContent'
  if (/carb|kohlenhydrate|glucides|koolhydraten/.test(l)) return 'carbohydrateContent'
  if (/sugar|zucker|sucres|azúcares|zuccheri|suikers/.test(l)) return 'sugarContent'
  if (/fib|ballast|vezels/.test(l)) return 'fiberContent'
  if (/prot|eiwei|eiwit/.test(l)) return 'proteinContent'
  if (/sodium|natrium|sodio/.test(l)) return 'sodiumContent'
  if (/cholest/.test(l)) return 'cholesterolContent'
  return null // salt: no schema.org property
}

/** Nutrients of a line made only of them; `colonOnly` asks for "Label: value" (outside a nutrition section). */
function nutritionLine (line: string, colonOnly: boolean): Record<string, string> | null {
  if (line.length > 300) return null
  const found: Record<string, string> = {}
  let pos = 0
  let count = 0
  while (pos < line.length && count < 20) {
    META_SEPARATOR.lastIndex = pos
    META_SEPARATOR.exec(line)
    pos = META_SEPARATOR.lastIndex
    if (pos >= line.length) break
    NUTRIENT.lastIndex = pos
    const m = NUTRIENT.exec(line)
    if (m == null || (colonOnly && m[2].trim() === '')) return null
    const key = nutrientKey(m[1])
    if (key != null) found[key] ??= m[4] != null ? `${m[3]} ${m[4]}` : m[3]
    pos = NUTRIENT.lastIndex
    count++
  }
  return count > 0 && pos >= line.length ? found : null
}

// ---------------------------------------------------------------------------------------------------------------
// Lines

const LIGATURES: Record<string, string> = { ﬀ: 'ff', ﬁ: 'fi', ﬂ: 'fl', ﬃ: 'ffi', ﬄ: 'ffl', ﬅ: 'st', ﬆ: 'st' }

/** Splits into trimmed, non-empty lines; drops OCR debris; joins words hyphenated across a line break. */
function prepareLines (input: string): Line[] {
  const text = input.slice(0, TEXT_LIMITS.chars)
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
    .replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '')
    .replace(/[ﬀ-ﬆ]/g, c => LIGATURES[c] ?? c)
    // eslint-disable-next-line no-control-regex
    .replace(/[\t\u000b\u000c\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
  const lines: Line[] = []
  let blank = false
  for (const raw of text.split('\n')) {
    const line = cleanLine(raw)
    if (line === '') { blank = true; continue }
    const previous = lines[lines.length - 1]
    // "choco-" + "late": a word broken by the line's end (not "low-" + "fat" written on two lines with a capital).
    if (previous != null && !blank && previous.text.endsWith('-') && /\p{Ll}/u.test(previous.text.slice(-2, -1)) && /^\p{Ll}/u.test(line) &&
      previous.text.length < TEXT_LIMITS.step) {
      previous.text = previous.text.slice(0, -1) + line
      continue
    }
    lines.push({ text: line, blankBefore: blank })
    blank = false
  }
  return lines
}

function cleanLine (raw: string): string {
  let line = raw.replace(/ {2,}/g, ' ').trim()
  if (line.length > TEXT_LIMITS.step) line = line.slice(0, TEXT_LIMITS.step)
  line = trimDebris(line)
  // Markdown bold inside a line ("**Serves:** 4") is only emphasis; a line that is all bold may be a heading.
  if (line.includes('**') && !/^\*\*[^*]+\*\*\s*[:：]?$/.test(line)) line = line.replace(/\*\*/g, '')
  if (!/[\p{L}\p{N}]/u.test(line)) return ''
  // One stray letter (or two signs) is debris; a lone digit may be a step number and stays.
  if (line.length <= 2 && !/\d/.test(line) && !/[\p{L}]{2}/u.test(line)) return ''
  return line
}

const DEBRIS = new Set(['|', '¦', '_', '~', '`', '^', '¬', '\\'])

/** OCR reads rules, margins and shadows as | ¦ _ ~ ` ^ ¬ \\ at the edges of a line (a loop: no regex backtracking). */
function trimDebris (line: string): string {
  let start = 0
  let end = line.length
  while (start < end && (DEBRIS.has(line[start]) || line[start] === ' ')) start++
  while (end > start && (DEBRIS.has(line[end - 1]) || line[end - 1] === ' ')) end--
  return line.slice(start, end)
}

const wordCount = (s: string) => {
  let n = 0
  let inWord = false
  for (let i = 0; i < s.length; i++) {
    const space = s.charCodeAt(i) === 32
    if (!space && !inWord) n++
    inWord = !space
  }
  return n
}

/** Removes markdown (#, **bold**, __bold__), a leading bullet and a trailing colon. */
function stripDecoration (line: string): string {
  let s = line.replace(/^#{1,6}\s+/, '')
  if (s.length <= 200) s = s.replace(/^(\*\*|__)(.+)\1\s*([:：]?)$/u, '$2$3')
  return s.replace(BULLET, '').replace(/\s*[:：]$/, '').trim()
}

function stripBullet (line: string): { text: string, bullet: boolean } {
  const m = BULLET.exec(line)
  return m == null ? { text: line, bullet: false } : { text: line.slice(m[0].length).trim(), bullet: true }
}

/** The step number and the text after it, for "1. Mix", "Step 2: Bake", "3) Serve". */
function numbered (line: string): { number: number, rest: string } | null {
  const m = NUMBERED.exec(line)
  if (m == null) return null
  return { number: Number(m[1] ?? m[2] ?? m[3]), rest: line.slice(m[0].length).trim() }
}

const quantityLed = (s: string) => QUANTITY_LED.test(s) && !NOT_QUANTITY.test(s)
/** Ends a sentence (only the tail is read: steps grow line by line). */
const sentenceEnd = (s: string) => /[.!?]["”’)]?$/.test(s.slice(-3))

/** Reads like an ingredient line: quantity-led or bulleted, and short. */
function ingredientLike (line: string): boolean {
  const { text, bullet } = stripBullet(line)
  if (text === '' || text.length > 300) return false
  const n = numbered(text)
  if (n != null && !quantityLed(n.rest)) return false
  const words = wordCount(text)
  const sentence = sentenceEnd(text) && words > 6
  if (quantityLed(text)) return words <= 14 && !sentence
  if (bullet) return words <= 12 && !sentence && !STEP_VERB.test(text)
  return words <= 10 && INGREDIENT_HINT.test(text)
}

/** Reads like a method sentence (not a list item). */
function sentenceLike (line: string): boolean {
  const { text } = stripBullet(line)
  if (quantityLed(text)) return false
  const words = wordCount(text)
  return words >= 10 || (words >= 4 && sentenceEnd(text)) || (STEP_VERB.test(text) && (words >= 3 || (words >= 2 && sentenceEnd(text))))
}

function sentenceCase (s: string): string {
  const lower = s.toLowerCase()
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
/** No lower-case letter and at least three capitals ("FOR THE SAUCE"). */
function allCaps (s: string): boolean {
  let upper = 0
  for (const c of s) {
    if (/\p{Ll}/u.test(c)) return false
    if (/\p{Lu}/u.test(c)) upper++
  }
  return upper >= 3
}

function cap (s: string, max: number): string {
  if (s.length <= max) return s
  const cut = s.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trim()
}

/** "Ingredients", "## Method", "INSTRUCTIONS:", "Ingredients for the sauce:", "Zutaten (für 4 Personen)". */
function mainHeading (line: string): Heading | null {
  if (line.length > 120) return null
  let s = stripDecoration(line)
  let rest: string | null = null
  const colon = s.search(/[:：]/)
  if (colon >= 0) {
    rest = s.slice(colon + 1).trim() || null
    s = s.slice(0, colon).trim()
  }
  s = s.replace(/[.!]+$/, '').replace(/’/g, "'")
  const m = HEADING.exec(s)
  if (m == null) return null
  const [kind, language] = HEADING_WORDS.get(m[1].toLowerCase()) ?? ['ingredients', 'en']
  const suffix = (m[2] ?? '').trim()
  let group: string | null = null
  let meta: Meta | null = null
  if (suffix !== '') {
    const parenthesised = /^\(.*\)$/.test(suffix)
    const inner = parenthesised ? suffix.slice(1, -1).trim() : suffix
    meta = metadataLine(inner, true)
    // "for the sauce" names a group; "for 12 muffins", "(serves 4)" or "list" are just part of the heading.
    if (meta == null && !parenthesised && !/^(?:list|liste)$/i.test(suffix)) {
      if (!FOR_PREFIX.test(suffix)) return null
      if (!/\d/.test(suffix)) group = cap(capitalise(suffix), TEXT_LIMITS.heading)
    }
  }
  // "Method: mix everything" is a heading and a step; "Notes: none" is not worth a section of its own either way.
  return { kind, group, rest, meta, language }
}

/** "For the dough", "Sauce:", "FILLING", "### Topping": a group of ingredients or a section of steps. */
function subHeading (line: string): { text: string, strong: boolean } | null {
  if (line.length > 80) return null
  const markdown = /^#{1,6}\s|^(\*\*|__).+(\*\*|__)\s*[:：]?$/u.test(line)
  const colon = /[:：](?:\*\*|__)?$/.test(line)
  const s = stripDecoration(line)
  if (s.length < 2 || s.length > 60 || wordCount(s) > 8 || s.includes(':')) return null
  if (quantityLed(s) || numbered(s) != null || !/\p{L}.*\p{L}/u.test(s) || sentenceEnd(s)) return null
  const forPrefix = FOR_PREFIX.test(s) && wordCount(s) <= 6 && !/\d/.test(s)
  const caps = allCaps(s) && wordCount(s) <= 5
  if (!(markdown || colon || forPrefix || caps)) return null
  return { text: cap(caps ? sentenceCase(s) : capitalise(s), TEXT_LIMITS.heading), strong: markdown || forPrefix || caps }
}

const INFO = /^(course|category|categories|cuisine|author|source|tags|keywords|difficulty|level|kategorie|küche|gang|schwierigkeit|catégorie|difficulté|categoría|cocina|dificultad|categoria|cucina|difficoltà|categorie|keuken|moeilijkheid)\s*[:：]\s*(.{1,200})$/iu
const BY_LINE = /^(?:[Rr]ecipe\s+)?(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Dd]oor)\s+(\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,4})$/u
const TITLE_PREFIX = /^(?:recipe|title|rezept|recette|receta|ricetta|recept)\s*[:：]\s*/i

// ---------------------------------------------------------------------------------------------------------------

/**
 * A recipe preview from pasted text or OCR output, or null when there is nothing recipe-like in it (no ingredients
 * and no steps). Ingredient lines go through `parseIngredientLine`, keeping the line (without its bullet) as `text`.
 */
export function parseRecipeText (input: string): RecipePreview | null {
  const lines = prepareLines(input)
  if (lines.length === 0) return null

  // Where the last explicit steps heading is: before it, an ingredients section keeps every line.
  let lastStepsHeading = -1
  const headings = lines.map((line, i) => {
    if (metadataLine(line.text, true) != null) return null
    const h = mainHeading(line.text)
    if (h?.kind === 'steps') lastStepsHeading = i
    return h
  })

  let title: string | null = null
  const paragraphs: string[] = []
  let paragraph: string[] = []
  const ingredients: PreviewIngredient[] = []
  const instructions: PreviewStep[] = []
  const meta: Meta = {}
  const nutrition: Record<string, string> = {}
  const tags: string[] = []
  let cuisine: string | null = null
  let category: string | null = null
  let author: string | null = null
  let sourceUrl: string | null = null
  let language: string | null = null

  type State = 'head' | 'ingredients' | 'steps' | 'notes' | 'nutrition'
  let state = 'head' as State
  let group: string | null = null
  let section: string | null = null
  /** The steps so far were numbered: unnumbered lines continue them. */
  let numberedSteps = false
  /** A lone step number came on the line before. */
  let pendingNumber = false
  /** The current step may take the next line (no paragraph break, not closed by a new number or bullet). */
  let stepOpen = false

  const merge = (m: Meta) => {
    meta.prepTime ??= m.prepTime
    meta.cookTime ??= m.cookTime
    meta.totalTime ??= m.totalTime
    if (m.serves === true && meta.serves !== true) { meta.servings = m.servings; meta.serves = true } else meta.servings ??= m.servings
    meta.yields ??= m.yields
  }

  const closeParagraph = () => {
    if (paragraph.length > 0) paragraphs.push(paragraph.join(' '))
    paragraph = []
  }

  const enter = (next: State) => {
    if (state === 'head') closeParagraph()
    if (next === 'ingredients' && state !== 'ingredients') group = null
    if (next === 'steps' && state !== 'steps') { section = null; stepOpen = false }
    state = next
  }

  const addIngredient = (line: string) => {
    if (ingredients.length >= TEXT_LIMITS.items) return
    let { text } = stripBullet(line)
    const n = numbered(text)
    if (n != null && n.rest !== '' && quantityLed(n.rest)) text = n.rest
    text = cap(text, TEXT_LIMITS.ingredient)
    if (text === '' || !/\p{L}/u.test(text)) return
    const previous = ingredients[ingredients.length - 1]
    // A long ingredient wrapped onto the next line: "1 can sweetened condensed milk, or" + "evaporated milk".
    if (previous != null && previous.group === group && /(?:,|\(|[-–]|\b(?:and|or|of|with|plus|und|oder|et|ou|y|o|e|en))$/i.test(previous.text.slice(-12)) &&
      !quantityLed(text) && previous.text.length + text.length < TEXT_LIMITS.ingredient) {
      ingredients[ingredients.length - 1] = ingredient(`${previous.text} ${text}`, group)
      return
    }
    ingredients.push(ingredient(text, group))
  }

  const addStep = (text: string, newStep: boolean) => {
    const s = text.trim()
    if (s === '' || !/[\p{L}\p{N}]/u.test(s)) return
    const current = instructions[instructions.length - 1]
    if (!newStep && current != null && stepOpen && (current.section ?? null) === section) {
      if (current.text.length + s.length < TEXT_LIMITS.step) current.text = `${current.text} ${s}`
      return
    }
    if (instructions.length >= TEXT_LIMITS.items) return
    instructions.push({ step: instructions.length + 1, text: cap(s, TEXT_LIMITS.step), ...(section != null && { section }) })
    stepOpen = true
  }

  /** The next line that is not a lone step number. */
  const peek = (i: number): string | null => {
    for (let j = i + 1; j < lines.length && j <= i + 2; j++) if (!LONE_NUMBER.test(lines[j].text)) return lines[j].text
    return null
  }

  const stepLine = (line: Line, forcedNumber: boolean) => {
    const n = numbered(line.text)
    if (n != null) {
      numberedSteps = true
      if (n.rest === '') { pendingNumber = true; return }
      addStep(stripBullet(n.rest).text, true)
      return
    }
    const { text, bullet } = stripBullet(line.text)
    if (forcedNumber || bullet) {
      if (forcedNumber) numberedSteps = true
      addStep(text, true)
      return
    }
    // "3 Bake for 10 minutes": the next number, whose point OCR dropped.
    const bare = /^(\d{1,2}) (?=\p{Lu})/u.exec(text)
    if (bare != null && numberedSteps && Number(bare[1]) === instructions.length + 1) {
      addStep(text.slice(bare[0].length), true)
      return
    }
    const current = instructions[instructions.length - 1]
    // OCR and narrow pastes break sentences across lines: a line continues the step when the step has not ended
    // its sentence or the line starts in lower case; under numbered steps every unnumbered line continues.
    // Unnumbered, a capitalised imperative ("Add the eggs") starts a step of its own.
    const lower = /^\p{Ll}/u.test(text)
    const ended = sentenceEnd(current?.text ?? '')
    const continues = current != null && stepOpen && (
      (!line.blankBefore && (numberedSteps || lower || (!ended && !STEP_VERB.test(text)))) ||
      (lower && !ended)
    )
    addStep(text, !continues)
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const forcedNumber = pendingNumber
    pendingNumber = false
    if (JUNK.test(line.text)) continue

    if (LONE_NUMBER.test(line.text)) {
      // A big printed step number on its own line: the next line is that step. A page number otherwise.
      pendingNumber = true
      if (state === 'steps') stepOpen = false
      continue
    }

    const m = metadataLine(line.text, state !== 'steps')
    if (m != null) { merge(m); continue }

    const heading = headings[i]
    if (heading != null) {
      if (heading.kind === 'ingredients' || heading.kind === 'steps') language ??= heading.language
      if (heading.meta != null) merge(heading.meta)
      enter(heading.kind)
      if (heading.kind === 'ingredients') group = heading.group
      if (heading.kind === 'steps') section = heading.group
      if (heading.rest != null) {
        if (heading.kind === 'ingredients') addIngredient(heading.rest)
        else if (heading.kind === 'steps') stepLine({ text: heading.rest, blankBefore: true }, false)
        else if (heading.kind === 'nutrition') Object.assign(nutrition, { ...nutritionLine(heading.rest, false), ...nutrition })
      }
      continue
    }

    if (state === 'nutrition') {
      const found = nutritionLine(line.text, false)
      if (found != null) for (const [k, v] of Object.entries(found)) nutrition[k] ??= v
      continue
    }
    if (state !== 'ingredients') {
      const found = nutritionLine(line.text, true)
      if (found != null) {
        for (const [k, v] of Object.entries(found)) nutrition[k] ??= v
        continue
      }
    }
    if (state === 'notes') continue

    if (state === 'head') {
      const info = INFO.exec(line.text)
      if (info != null) {
        const label = info[1].toLowerCase()
        const value = info[2].trim()
        if (/^(?:course|categor|kategorie|catégorie|categoría|gang)/.test(label)) category ??= cap(value, 100)
        else if (/^(?:cuisine|küche|cocina|cucina|keuken)/.test(label)) cuisine ??= cap(value, 100)
        else if (label === 'author') author ??= cap(value, 100)
        else if (label === 'source') sourceUrl ??= /^https?:\/\/\S+$/i.test(value) ? value : null
        else if (label === 'tags' || label === 'keywords') {
          for (const tag of value.split(/\s*[,;]\s*/)) if (tag !== '' && tag.length <= 50 && tags.length < 20) tags.push(tag)
        }
        continue
      }
    }

    if (state === 'head') {
      if (URL_LINE.test(line.text)) {
        if (/^https?:\/\//i.test(line.text)) sourceUrl ??= line.text
        continue
      }
      const by = title != null ? BY_LINE.exec(line.text) : null
      if (by != null) { author ??= by[1]; continue }
      const sub = subHeading(line.text)
      const next = peek(i)
      if (sub != null && next != null && (title != null || FOR_PREFIX.test(sub.text))) {
        if (ingredientLike(next)) { enter('ingredients'); group = sub.text; continue }
        if (numbered(next) != null) { enter('steps'); section = sub.text; continue }
      }
      const n = numbered(line.text)
      if ((n != null && !quantityLed(n.rest)) || (forcedNumber && !ingredientLike(line.text))) {
        enter('steps')
        stepLine(line, forcedNumber)
        continue
      }
      // "10-Minute Pasta" or "3 Ingredient Cookies" as the first line, with no ingredient after it, is the title.
      const numberedTitle = title == null && paragraphs.length === 0 && paragraph.length === 0 && !line.text.includes(',') &&
        !ingredientLike(next ?? '') && /^\d{1,3}[-\s]?\p{L}/u.test(line.text)
      if (ingredientLike(line.text) && !numberedTitle) {
        enter('ingredients')
        addIngredient(line.text)
        continue
      }
      const words = wordCount(line.text)
      if (title == null && line.text.length <= 150 && words <= 15 && !(words >= 5 && sentenceEnd(line.text)) && /\p{L}.*\p{L}/u.test(line.text)) {
        title = tidyTitle(line.text)
        continue
      }
      if (line.blankBefore) closeParagraph()
      paragraph.push(line.text)
      continue
    }

    const explicitStepsAhead = i < lastStepsHeading

    if (state === 'ingredients') {
      const sub = subHeading(line.text)
      if (sub != null) {
        const next = peek(i)
        if (next == null) continue
        if (!explicitStepsAhead && !ingredientLike(next) && (numbered(next) != null || sentenceLike(next))) {
          enter('steps')
          section = sub.text
        } else if (!allCaps(line.text) || !allCaps(next)) {
          group = sub.text
        } else {
          addIngredient(line.text)
        }
        continue
      }
      if (!explicitStepsAhead) {
        const n = numbered(line.text)
        if ((n != null && !quantityLed(n.rest)) || (forcedNumber && !ingredientLike(line.text)) ||
          (!ingredientLike(line.text) && sentenceLike(line.text))) {
          enter('steps')
          stepLine(line, forcedNumber)
          continue
        }
      }
      addIngredient(line.text)
      continue
    }

    // state === 'steps'
    const sub = subHeading(line.text)
    if (sub != null) {
      const next = peek(i)
      if (sub.strong && next != null && numbered(next) == null && ingredientLike(next) && quantityLed(stripBullet(next).text)) {
        // Recipes written per component: "For the sauce" with its ingredients, then its method.
        enter('ingredients')
        group = sub.text
      } else {
        section = sub.text
        stepOpen = false
      }
      continue
    }
    stepLine(line, forcedNumber)
  }
  closeParagraph()

  if (ingredients.length === 0 && instructions.length === 0) return null

  const description = paragraphs.join('\n\n')
  return {
    title: title ?? UNTITLED,
    description: description === '' ? null : cap(description, TEXT_LIMITS.description),
    ingredients,
    instructions,
    prepTime: meta.prepTime ?? null,
    cookTime: meta.cookTime ?? null,
    totalTime: meta.totalTime ?? (meta.prepTime != null && meta.cookTime != null ? meta.prepTime + meta.cookTime : null),
    servings: meta.servings ?? null,
    yields: meta.yields ?? null,
    imageUrl: null,
    cuisine,
    category,
    tags,
    author,
    nutrition: Object.keys(nutrition).length > 0 ? nutrition : null,
    language,
    sourceUrl
  }
}

function ingredient (text: string, group: string | null): PreviewIngredient {
  const parsed = parseIngredientLine(text, group)
  return {
    text: parsed.text,
    name: cap(parsed.name, 200),
    quantity: parsed.quantity != null && Number.isFinite(parsed.quantity) ? parsed.quantity : null,
    unit: parsed.unit == null ? null : cap(parsed.unit, 50),
    note: parsed.note == null ? null : cap(parsed.note, TEXT_LIMITS.ingredient),
    group
  }
}

function tidyTitle (line: string): string {
  let s = stripDecoration(line).replace(TITLE_PREFIX, '').trim()
  if (allCaps(s)) s = s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
  return cap(s, TEXT_LIMITS.title) || UNTITLED
}
