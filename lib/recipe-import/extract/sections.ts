// Ingredient and step sections of the page's lines (page-lines.ts): the lines under an "Ingredients"/"Instructions"
// heading (several languages), or the lines of the best such container; without either, the ingredients are the list
// shaped like one (quantities, measures) and the steps the list or the paragraphs that follow it.
import { LIMITS } from './clean.js'
import { isElement, type AnyNode, type Element } from './dom.js'
import { groupHeader, groupName, startsLikeIngredient, startsWithQuantity, stripBullet } from './lines.js'
import type { Kind, Line } from './page-lines.js'
import { isTimeOrYield } from './labels.js'

const END = String.raw`(?=$|[\s:(\-–—,.!*：（【\[|])`
/** Words that qualify the heading of a whole recipe's list: "Recipe ingredients", "Step-by-step instructions". */
const QUALIFIER = String.raw`(?:(?:the|your|our|recipe|cooking|baking|preparation|step[- ]by[- ]step|detailed|full|complete|easy|simple|basic)\s+)?`
/** An article before the heading's word: "Les ingrédients de la recette", "Die Zubereitung", "De bereiding". */
const ARTICLE = String.raw`(?:(?:les|la|le|die|der|de|het|gli|il|los|las|el|os|as)\s+|l['’]\s?)?`
const INGREDIENT_WORDS = [
  String.raw`ingredients?(?:\s+list)?`, String.raw`what you(?:'|’)?ll need`, String.raw`you(?:'|’)?ll need`, 'you will need',
  'shopping list', 'zutatenliste', 'zutaten', 'ingrédients', 'ingredienti', 'ingredientes', String.raw`ingredi[eë]nten(?:lijst)?`, 'benodigdheden',
  'ingredienser', 'ainekset', 'składniki', 'suroviny', 'ingredience', 'ingrediencie', 'sastojci', 'sestavine',
  'malzemeler', 'hozzávalók', 'ingrediente', 'ingredientai', 'koostisosad', 'συστατικά', 'υλικά', 'ингредиенты',
  'інгредієнти', 'nguyên liệu', String.raw`bahan(?:-bahan)?`, 'מצרכים', 'المكونات', '材料', '用料', '食材', '재료', 'ส่วนผสม'
]
const INSTRUCTION_WORDS = [
  'instructions?', 'directions?', 'method', 'preparation', String.raw`how to make(?: it)?`, 'steps', 'procedure',
  String.raw`zubereitung(?:sschritte)?`, 'arbeitsschritte', 'anleitung', String.raw`so geht(?:'|’)?s`, String.raw`so wird(?:'|’)?s gemacht`, 'préparation', 'étapes',
  'preparazione', 'procedimento', 'istruzioni', 'preparación', 'elaboración', 'instrucciones', 'pasos',
  String.raw`modo de prepar(?:o|a|ación)`, 'preparo', 'preparação', 'como fazer', String.raw`bereiding(?:swijze)?`, 'werkwijze', 'instructies', 'stappen',
  'zo maak je het', 'fremgangsmåte', 'fremgangsmåde', 'slik gjør du', 'sådan gør du', 'så gör du', 'gör så här',
  'tillagning', 'tilberedning', 'instruktioner', String.raw`valmistus(?:ohje)?`, 'przygotowanie', 'sposób przygotowania',
  'wykonanie', String.raw`postup(?: prípravy)?`, 'příprava', 'príprava', 'priprema', 'postupak', 'priprava', 'postopek',
  'hazırlanışı', 'yapılışı', String.raw`elkészítés(?:e)?`, 'mod de preparare', 'εκτέλεση', 'οδηγίες',
  'διαδικασία', 'приготовление', 'способ приготовления', 'приготування', 'cách làm', 'cara membuat', 'langkah',
  'אופן ההכנה', 'הוראות הכנה', 'طريقة التحضير', 'طريقة العمل', '作り方', '做法', '作法', '步骤', '制作方法', '製作方法',
  '만드는 ?법', '조리 ?방법', '조리법', 'วิธีทำ'
]
const INGREDIENTS_HEADING = new RegExp(String.raw`^${ARTICLE}${QUALIFIER}(?:${INGREDIENT_WORDS.join('|')})${END}`, 'iu')
const INSTRUCTIONS_HEADING = new RegExp(String.raw`^${ARTICLE}${QUALIFIER}(?:${INSTRUCTION_WORDS.join('|')})${END}`, 'iu')
const STOP_HEADING = new RegExp(String.raw`^(?:recipe\s+)?(?:notes?|tips?(?: and tricks)?|nutrition(?:al)?(?: facts| information| info)?|video|equipment|comments?|reviews?|related(?: recipes| posts)?|you may also like|share(?: this)?|print(?: recipe)?|leave a (?:reply|comment)|serving suggestions?|storage|faqs?|notizen|tipps?|hinweise?|nährwerte|nährwertangaben|nährwertinformationen|næringsinnhold|næringsindhold|näringsvärden?|näringsinnehåll|voedingswaarden?|valeurs nutritionnelles|información nutricional|valores nutricionales|informação nutricional|wartości odżywcze|conseils?|astuces?|consigli|valori nutrizionali|notas?|consejos|opmerkingen|tip|information nutritionnelle|rate this recipe|did you make this|more recipes(?: for)?|meer recepten|mehr rezepte|plus de recettes|altre ricette|más recetas|mais receitas|flere oppskrifter|gerelateerde recepten|verwandte rezepte|ähnliche rezepte|recettes similaires|ricette correlate|recetas relacionadas|receitas relacionadas|lignende oppskrifter)${END}`, 'iu')
/** A heading ending in such a word ("Pro Tips", "Make-Ahead and Storage", "Tools You'll Need") ends a section too. */
const STOP_LAST_WORD = /^(?:[\p{L}'’&+-]+\s+){0,5}(?:tips?|notes|variations?|substitutions?|storage|equipment|tools(?: you(?:'|’)?ll need)?|faqs?|questions)[\s:!?.]*$/iu

/** A note set between steps: "Tip: ...", "Dica: ...", "Astuce : ...". */
const TIP_LABEL = /^(?:tip|tipp|dica|astuce|consiglio|consejo|truco|hinweis|vinkki|wskazówka|savjet)\s?:/i
/** "4 tips to vary it", "Tipps für die Füllung": a heading of tips, numbered or not. */
const TIPS_FIRST = /^(?:\d{1,2}\s+)?(?:(?:pro|expert|top|quick|handy|our|my)\s+)?(?:tips|tipps|astuces|consigli|consejos|dicas|trucs)\b/iu
/** A dish and the verb of making it, in languages that put the verb last ("Banketstaaf maken", "Brot backen"). */
const MAKING = /^[\p{L}'’&\- ]{2,45}\s(?:maken|bereiden|zubereiten|machen|backen)$/iu
/** "番茄鸡肉焗饭的做法" (the way of making ...): the word comes last in Chinese and Japanese headings. */
const MAKING_CJK = /(?:做法|作法|作り方)$/u
const HEADING_TAIL = 40
const FOR_TAIL = /^\s*(?:for|für|pour|per|para|voor|til|för|na|za)\s/i
const TIME_WORDS = /\d|\btime\b|zeit|temps|tempo|tiempo|tijd|\btid\b/i

/** A heading that is its word alone ("Ingredients", "Method:", "Die Zubereitung"), nothing after it. */
function bareHeading (text: string, kind: Kind): boolean {
  const m = (kind === 'ingredients' ? INGREDIENTS_HEADING : INSTRUCTIONS_HEADING).exec(text)
  return m != null && /^[\s:：.!*()\-–—]*$/.test(text.slice(m[0].length))
}

export function headingKind (line: Line): Kind | 'stop' | null {
  // A list item that is a link is an entry of a table of contents ("How to make it" pointing down the page).
  if (line.text.length > 60 || (line.link && line.item)) return null
  const test = (re: RegExp): boolean => {
    const m = re.exec(line.text)
    // "Zutaten für eine Tourte mit Feigen und Confit de canard:" names what the list is for, however long.
    return m != null && (line.text.length - m[0].length <= HEADING_TAIL || FOR_TAIL.test(line.text.slice(m[0].length)))
  }
  if (test(INGREDIENTS_HEADING)) return 'ingredients'
  // "Preparation time: 15 min" is a time, not the heading of the steps.
  if (test(INSTRUCTIONS_HEADING) && !TIME_WORDS.test(line.text)) return 'instructions'
  if (test(STOP_HEADING)) return 'stop'
  if ((line.level > 0 || line.bold) && (STOP_LAST_WORD.test(line.text) || TIPS_FIRST.test(line.text))) return 'stop'
  // "Banketstaaf maken", "Pizza zubereiten": a section heading naming the dish and the making of it.
  if (line.level >= 2 && (MAKING.test(line.text) || MAKING_CJK.test(line.text)) && !TIME_WORDS.test(line.text)) return 'instructions'
  return null
}

/** A line that names a group of the lines below it: a heading, bold text or "For the sauce:". */
export function isSubheading (line: Line): boolean {
  if (line.text.length > 60 || line.item) return false
  if (line.level > 0 || (line.bold && !/^\d/.test(line.text))) return true
  return groupHeader(line.text) != null
}

/** A <dt>: the term over the <dd> lines that follow it ("Per decorare" over two ingredients). */
function isTerm (line: Line): boolean {
  return isElement(line.block) && line.block.name.toLowerCase() === 'dt'
}

/** Lines that only number a step ("1", "Step 2") or are page furniture. */
// (Letters of every script count: Korean or Russian text is not punctuation.)
// (A recipe card's controls: "Scale", "1x 2x 3x", "Cook Mode Prevent your screen from going dark".)
export const NOISE = /^(?:(?:step|schritt|étape|passo|paso|stap)?\s*\d{1,2}[.:)]?|print|pin|save|jump to recipe|scroll to|(?:units\s+)?scale|\d(?:[.,]5)?x(?:\s+\d(?:[.,]5)?x){0,5}|cook mode(?:\s[^.!?]{0,60})?|[^\p{L}\p{N}]*)$/iu
/** "2 Mix the filling", "Step 3: Bake": a step's numbered title. */
const STEP_TITLE = /^(?:(?:step|schritt|étape|etape|passo|paso|stap|korak|krok|steg|trin)\s*)?\d{1,2}\s*[.):]?\s+\p{L}/iu
/** Prose: two sentences or more (a word of two letters or more ends the first: "z. B. Tellicherry" is not two). */
const SENTENCES = /\p{L}{2}[.!?]\s+\p{Lu}[^.!?]{3,}[.!?]/u

interface SectionLine { text: string, group: string | null }
export interface Section { lines: SectionLine[], score: number, end: number, list: Element | null }

function parentOf (node: AnyNode): AnyNode {
  return node.parent ?? node
}

/** The nearest common ancestor of two nodes (bounded walk). */
function commonAncestor (a: AnyNode, b: AnyNode): AnyNode | null {
  const seen = new Set<AnyNode>()
  let depth = 0
  for (let n: AnyNode | null = a; n != null && depth < 500; n = n.parent, depth++) seen.add(n)
  depth = 0
  for (let n: AnyNode | null = b; n != null && depth < 500; n = n.parent, depth++) if (seen.has(n)) return n
  return null
}

function inside (node: AnyNode, ancestor: AnyNode): boolean {
  let depth = 0
  for (let n: AnyNode | null = node; n != null && depth < 500; n = n.parent, depth++) if (n === ancestor) return true
  return false
}

function lineScore (line: SectionLine, kind: Kind, link: boolean): number {
  const text = line.text
  if (kind === 'ingredients') {
    if (text.length > 250 || SENTENCES.test(text)) return -1
    const base = startsWithQuantity(text) ? 1 : /\d/.test(text) ? 0.7 : text.length <= 80 ? 0.4 : 0
    return link ? base - 0.5 : base
  }
  if (link) return -2
  return Math.min(text.length, 600) / 60
}

/** The lines under the heading at `start`, up to the next section, within the element holding heading and content. */
function sectionAfter (lines: Line[], start: number, kind: Kind): Section {
  const heading = lines[start]
  const out: SectionLine[] = []
  let score = 0
  let group: string | null = null
  let items = 0
  let scope: AnyNode | null = null
  let list: Element | null = null
  let lastItem: Line | null = null
  let end = start
  // The same step twice is the page's second rendering (desktop and mobile copies), not a step.
  const seen = new Set<string>()
  let inline = false
  for (let j = start + 1; j < lines.length && j - start < 600 && out.length < LIMITS.steps; j++) {
    const line = lines[j]
    if (scope != null && !inside(line.block, scope)) break
    const found = headingKind(line)
    if (found === 'stop' || (found != null && found !== kind)) break
    if (found === kind) {
      if (out.length === 0) continue
      break
    }
    if (NOISE.test(line.text) || isTimeOrYield(line.text)) continue
    if (kind === 'instructions' && seen.has(line.text)) continue
    if (line.level > 0 && heading.level > 0 && line.level <= heading.level && out.length > 0) {
      // A heading as high as "Ingredients" over more quantities ("Glaze" + "1/3 cup sugar") names their group.
      const next = lines[j + 1]
      const group = kind === 'ingredients' && line.text.length <= 40 && next != null && next.item &&
        startsLikeIngredient(next.text) && headingKind(next) == null
      // A numbered heading among the steps ("2 Mix the filling") is the title of the next step, whatever its level.
      const titled = kind === 'instructions' && line.text.length <= 80 && STEP_TITLE.test(line.text)
      if (!group && !titled) break
    }
    if (kind === 'instructions' && line.link) continue
    // "Tip: let it rest 20 minutes" between two steps is a note on the step, not a step.
    if (kind === 'instructions' && !line.item && TIP_LABEL.test(line.text)) continue
    // Links right under the heading ("[edit]", "Jump to the recipe") are the heading's own, not the section's start.
    if (line.link && out.length === 0 && !/\d/.test(line.text)) continue
    // Inside a recipe card's steps, the ingredients repeated under each step ("used in this step") are not steps; a
    // paragraph of prose is one, even in a block classed "step-ingredients".
    if (heading.kind === kind && line.kind != null && line.kind !== kind &&
      (kind === 'ingredients' || line.item || line.text.length < 20 || !/[.!?。]$/.test(line.text))) continue
    if (scope == null) {
      const ancestor = commonAncestor(parentOf(heading.block), line.block)
      const tag = ancestor != null && isElement(ancestor) ? ancestor.name.toLowerCase() : 'body'
      scope = tag === 'body' || tag === 'html' ? null : ancestor
    }
    // Ingredients written as headings ("<h5>• 50g butter</h5>") are ingredients, not the names of groups.
    if (isSubheading(line) && !(kind === 'ingredients' && startsLikeIngredient(line.text))) {
      group = groupName(line.text)
      continue
    }
    // A short plain line right before the first list names its group ("Dough" over the dough's ingredients).
    if (kind === 'ingredients' && items === 0 && !line.item && line.text.length <= 40 && !/[\d.!?]/.test(line.text) &&
      lines[j + 1]?.item === true && headingKind(lines[j + 1]) == null) {
      group = groupName(line.text)
      continue
    }
    // Ingredients written as one paragraph ("4 figs, 3 shallots, 200 g chanterelles, ...") are its parts.
    const parts = kind === 'ingredients' && !line.item && (out.length === 0 || inline) ? listedInline(line.text) : null
    // What follows such a paragraph is not more of the list ("Utensils: a 20 cm ring", the first step).
    if (inline && parts == null) break
    if (parts != null) {
      inline = true
      for (const text of parts) {
        const entry = { text, group }
        out.push(entry)
        score += lineScore(entry, kind, false)
      }
      end = j
      continue
    }
    // Prose ends a list of ingredients (a list item with a long note is still an ingredient).
    if (kind === 'ingredients' && !line.item && (line.text.length > 250 || SENTENCES.test(line.text))) {
      if (out.length > 0) break
      continue
    }
    if (line.item) {
      // Ingredients are a bulleted list and steps a numbered one: a numbered list after bullets is the next section.
      if (kind === 'ingredients' && lastItem != null && lastItem.list !== line.list && !lastItem.ordered && line.ordered) break
      items++
      lastItem = line
      list ??= line.list
    } else if (items >= 2) {
      // A short line between two lists names the next group ("Filling"), and so does a heading however long
      // ("Decoration (the amounts vary with the size of the bars)"); anything else ends the list.
      const next = lines[j + 1]
      if ((line.text.length <= 60 || (line.level > 0 && line.text.length <= 150)) && next != null && next.item && (next.list !== lastItem?.list || isTerm(line)) && headingKind(next) == null) {
        group = groupName(line.text)
        continue
      }
      break
    }
    const entry = { text: line.text, group }
    out.push(entry)
    seen.add(line.text)
    score += lineScore(entry, kind, line.link)
    end = j
  }
  // A heading inside a recipe card's ingredients/instructions container ("wprm-recipe-instructions") is the card's
  // own; a blog's "How to make it" above the card is not. Steps written as a list are a recipe's, prose an article's.
  if (heading.kind === kind) score *= 2
  // The bare word ("Instructions") heads a recipe's own list; "How to Make Greek Yogurt Bowls" heads a blog's account.
  if (bareHeading(heading.text, kind)) score *= 1.5
  if (kind === 'instructions' && items > 0 && items === out.length) score *= 1.3
  return { lines: out, score, end, list }
}

/**
 * The best section under a heading of `kind`. `after`: where the ingredients end; steps whose heading comes right
 * after them (a recipe card's "Instructions" under its list) count more than an account of the recipe higher up.
 */
/**
 * The parts of a paragraph that lists ingredients ("4 figs, 1 duck confit (2 legs), 3 shallots, 200 g chanterelles"):
 * four or more, split at ", " or "; " outside brackets ("1,5 kg" keeps its decimal comma), each short, half or more
 * starting with a quantity. Null for anything else.
 */
export function listedInline (text: string): string[] | null {
  if (text.length > 2000 || SENTENCES.test(text)) return null
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '(' || c === '[') depth++
    else if ((c === ')' || c === ']') && depth > 0) depth--
    else if ((c === ',' || c === ';') && depth === 0 && text[i + 1] === ' ') {
      parts.push(text.slice(from, i).trim())
      from = i + 1
    }
  }
  parts.push(text.slice(from).trim().replace(/[.。]$/, ''))
  const kept = parts.filter(p => p !== '')
  if (kept.length < 4 || kept.some(p => p.length > 80)) return null
  return kept.filter(p => startsWithQuantity(p)).length >= kept.length / 2 ? kept.slice(0, LIMITS.ingredients) : null
}

function bestByHeading (lines: Line[], kind: Kind, after = -1): Section | null {
  let best: Section | null = null
  let tried = 0
  for (let i = 0; i < lines.length && tried < 30; i++) {
    if (headingKind(lines[i]) !== kind) continue
    tried++
    const section = sectionAfter(lines, i, kind)
    if (after >= 0 && i > after && i - after <= 3) section.score *= 1.5
    if (section.lines.length > 0 && section.score > 0 && (best == null || section.score > best.score)) best = section
  }
  return best
}

function bestByContainer (lines: Line[], kind: Kind): Section | null {
  const groups = new Map<Element, number[]>()
  // Sibling containers one after the other ("<div class="instruction">" a step) are one list: the first names it.
  let last: Element | null = null
  let lastKey: Element | null = null
  lines.forEach((line, i) => {
    if (line.kind !== kind || line.container == null) return
    const same = last != null && (line.container === last || (line.container.parent != null && line.container.parent === last.parent))
    const key = same && lastKey != null ? lastKey : line.container
    last = line.container
    lastKey = key
    const list = groups.get(key)
    if (list == null) groups.set(key, [i])
    else if (list.length < LIMITS.steps * 2) list.push(i)
  })
  let best: Section | null = null
  for (const indexes of groups.values()) {
    const out: SectionLine[] = []
    let score = 0
    let name: string | null = null
    let list: Element | null = null
    for (const i of indexes) {
      const line = lines[i]
      const found = headingKind(line)
      if (found === kind && out.length === 0) continue
      if (found != null) break
      if (NOISE.test(line.text) || (kind === 'instructions' && line.link)) continue
      if (isSubheading(line)) {
        name = groupName(line.text)
        continue
      }
      const entry = { text: line.text, group: name }
      out.push(entry)
      score += lineScore(entry, kind, line.link)
      list ??= line.list
    }
    const end = indexes[indexes.length - 1]
    if (out.length > 0 && score > 0 && (best == null || score > best.score)) best = { lines: out, score, end, list }
  }
  return best
}

export function findSection (lines: Line[], kind: Kind, after = -1): Section | null {
  const byHeading = bestByHeading(lines, kind, after)
  const byContainer = bestByContainer(lines, kind)
  if (byHeading == null) return byContainer
  if (byContainer == null) return byHeading
  return byContainer.score > byHeading.score * 2 ? byContainer : byHeading
}

/** Steps without a heading: the list that follows the ingredients ("Let's get started!" + a numbered list). */
export function listAfter (lines: Line[], ingredients: Section): Section | null {
  const out: SectionLine[] = []
  let prose = 0
  let group: string | null = null
  let list: Element | null = null
  let score = 0
  for (let j = ingredients.end + 1; j < lines.length && j - ingredients.end < 60 && out.length < LIMITS.steps; j++) {
    const line = lines[j]
    const found = headingKind(line)
    if (found != null && found !== 'instructions') break
    // Numbered headings over lists ("1. Do some prep:", "2. Make the salad:") name the groups of one list of steps.
    const next = lines[j + 1]
    if (line.level > 0 && line.text.length <= 80 && STEP_TITLE.test(line.text) && next?.item === true && next.list != null &&
      next.list !== ingredients.list) {
      group = groupName(line.text)
      list = next.list
      continue
    }
    if (list == null) {
      // Paragraphs of prose first ("1- Beat the egg.", "2- Add the cheese.") are the steps, not a list further down
      // (the comments).
      if (!line.item && !line.link && line.level === 0 && (line.text.length >= 40 || /[.!?。！]$/.test(line.text)) && ++prose >= 2) return null
      if (!line.item || line.list == null || line.list === ingredients.list || line.link) continue
      list = line.list
    } else if (line.list !== list) {
      break
    }
    if (!line.item || NOISE.test(line.text)) continue
    const entry = { text: line.text, group }
    out.push(entry)
    score += lineScore(entry, 'instructions', line.link)
  }
  const chars = out.reduce((n, l) => n + l.text.length, 0)
  return out.length >= 2 && chars / out.length >= 30 ? { lines: out, score, end: ingredients.end, list } : null
}

/**
 * The ingredients under their heading, or the list found by its shape when the heading's section barely looks like
 * one (an "Ingredients" label over a single line of a summary box) and the shape finds a real list.
 */
export function betterOf (byHeading: Section | null, lines: Line[], recipe: boolean): Section | null {
  const quantities = byHeading?.lines.filter(l => startsLikeIngredient(l.text)).length ?? 0
  if (byHeading != null && (quantities >= 2 || byHeading.lines.length >= 3)) return byHeading
  const byShape = ingredientsByContent(lines, recipe)
  return byShape != null && byShape.lines.length > (byHeading?.lines.length ?? 0) ? byShape : byHeading
}

/**
 * Steps without a heading anywhere on the page: the numbered list (<ol>) of the most text whose items read like steps
 * (two or more, 30 characters or more on average, no links), outside sections such as "Notes" or "Tips". A page may
 * set its steps above its box of ingredients.
 */
export function orderedListAnywhere (lines: Line[], ingredients: Section): Section | null {
  const lists = new Map<Element, { lines: SectionLine[], chars: number, links: number, end: number }>()
  let stopped = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (!line.item && (line.level > 0 || line.bold)) {
      stopped = headingKind(line) === 'stop'
      continue
    }
    if (stopped || !line.item || !line.ordered || line.list == null || line.list === ingredients.list) continue
    if (NOISE.test(line.text)) continue
    let entry = lists.get(line.list)
    if (entry == null) {
      entry = { lines: [], chars: 0, links: 0, end: i }
      lists.set(line.list, entry)
    }
    if (entry.lines.length >= LIMITS.steps) continue
    if (line.link) entry.links++
    entry.lines.push({ text: line.text, group: null })
    entry.chars += line.text.length
    entry.end = i
  }
  let best: Section | null = null
  for (const [list, entry] of lists) {
    const n = entry.lines.length
    if (n < 2 || entry.links > 0 || entry.chars / n < 30) continue
    const score = entry.lines.reduce((sum, l) => sum + lineScore(l, 'instructions', false), 0)
    if (best == null || score > best.score) best = { lines: entry.lines, score, end: entry.end, list }
  }
  return best
}

/** Steps without a heading written as paragraphs: the prose that follows the ingredients, up to the next heading. */
export function proseAfter (lines: Line[], ingredients: Section): Section | null {
  const out: SectionLine[] = []
  let score = 0
  let end = ingredients.end
  let skipped = 0
  let scope: AnyNode | null | undefined
  const last = lines[ingredients.end]
  for (let j = ingredients.end + 1; j < lines.length && j - ingredients.end < 200 && out.length < LIMITS.steps; j++) {
    const line = lines[j]
    const found = headingKind(line)
    if (found === 'stop' || found === 'ingredients') break
    if (NOISE.test(line.text) || isTimeOrYield(line.text)) continue
    if (scope != null && !inside(line.block, scope)) break
    const prose = !line.link && line.level === 0 && !line.item && (line.text.length >= 40 || /[.!?。！]$/.test(line.text))
    if (!prose) {
      // A heading or two ("The recipe") may stand between the ingredients and the steps; anything else after the
      // steps ends them.
      if (out.length > 0 || ++skipped > 3) break
      continue
    }
    if (scope === undefined) {
      const ancestor = last == null ? null : commonAncestor(last.block, line.block)
      scope = ancestor == null || !isElement(ancestor) || ['body', 'html'].includes(ancestor.name.toLowerCase()) ? null : ancestor
    }
    const entry = { text: line.text, group: null }
    out.push(entry)
    score += lineScore(entry, 'instructions', false)
    end = j
  }
  const chars = out.reduce((n, l) => n + l.text.length, 0)
  return out.length > 0 && chars >= 80 ? { lines: out, score, end, list: null } : null
}

const BULLETED = /^[•▪◦●·*-]/

/** A measure after the quantity ("200 g", "1/2 cup", "2 EL", "½ tsp", "125 克"): a list of things to buy has some. */
const MEASURE = /^[^\p{L}]{0,12}(?:[½¼¾⅓⅔⅛⅜⅝⅞]|\d+\s*\/\s*\d+|\d*[.,]\d|(?:\d+\s*)(?:g|gr|grams?|grammes?|kg|mg|ml|cl|dl|l|liters?|litres?|oz|fl\.?\s*oz|lbs?|pounds?|ounces?|cups?|c\.|tbsp|tbs|tsp|tablespoons?|teaspoons?|pinch|dash|cloves?|cans?|el|tl|msk|tsk|ss|ts|stk|pk|szt|łyż\p{L}*|cs|cc|c\.\s*à|cuill\p{L}*|cucchia\p{L}*|cuchar\p{L}*|colher\p{L}*|eetlepels?|theelepels?|克|毫升|升|匙|杯|大さじ|小さじ|스푼|컵)(?![\p{L}]))/iu

/** "1 Preheat the oven", "2 Mix": lines numbered in sequence are steps, whatever their first character. */
const LEADING_NUMBER = /^(\d{1,2})(?:[.):]|\s|-\s)/

/**
 * Ingredients without a heading or a named container: the run of list items (or bulleted lines) that look most like
 * ingredients: at least three, half of them or more starting with a quantity, and some with a measure ("200 g",
 * "1/2 cup") unless the page is known to be a recipe (`recipe`: its steps have their heading). A short heading
 * between two lists of the run names the group below it ("Produce", "Pantry").
 */
function ingredientsByContent (lines: Line[], recipe: boolean): Section | null {
  let best: Section | null = null
  let run: SectionLine[] = []
  let quantities = 0
  let measures = 0
  let numbered = 0
  let group: string | null = null
  let pending: string | null = null
  let list: Element | null = null
  let block: AnyNode | null = null
  let end = -1
  const close = (): void => {
    if (run.length >= 3 && quantities >= run.length / 2 && numbered < run.length / 2 &&
      (recipe || measures >= Math.max(2, run.length / 4))) {
      const score = quantities + (run.length - quantities) * 0.4
      if (best == null || score > best.score) best = { lines: run, score, end, list }
    }
    run = []
    quantities = 0
    measures = 0
    numbered = 0
    group = null
    pending = null
    list = null
    block = null
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const text = line.text
    if (NOISE.test(text) || isTimeOrYield(text)) continue
    const quantity = startsLikeIngredient(text)
    const candidate = text.length <= 150 && line.kind !== 'instructions' && !SENTENCES.test(text) &&
      !(line.ordered && text.length > 80) && !(quantity && text.length > 60 && /[.!。]$/.test(text)) &&
      // "1- Beat the egg." in a paragraph of its own is a numbered step.
      !(quantity && !line.item && LEADING_NUMBER.test(text) && /\p{L}{2}[.!。]$/u.test(text)) &&
      (quantity
        ? (line.item || line.level === 0 || BULLETED.test(text))
        // Without a quantity: an item of a list, or a line of the paragraph the run's last line is in ("Salt<br>").
        : ((line.item || (run.length > 0 && line.block === block)) && !line.link && text.length <= 120 && !/[.!?。]$/.test(text)))
    if (!candidate) {
      if (pending == null && text.length <= 40 && isSubheading(line) && headingKind(line) == null) {
        pending = groupName(text)
        continue
      }
      close()
      if (text.length <= 40 && isSubheading(line) && headingKind(line) == null) pending = groupName(text)
      continue
    }
    if (pending != null) {
      group = pending
      pending = null
    }
    const n = LEADING_NUMBER.exec(text)
    if (n != null && Number(n[1]) === numbered + 1) numbered++
    if (quantity) quantities++
    if (MEASURE.test(stripBullet(text))) measures++
    list ??= line.list
    block = line.block
    run.push({ text, group })
    end = i
    if (run.length >= LIMITS.ingredients) close()
  }
  close()
  return best
}
