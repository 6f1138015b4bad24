// Page heuristics for pages without structured data (and to fill what the structured data lacks): the page is read
// once as a sequence of lines that remember their block (heading level, list item, bold) and the recipe-looking
// container they sit in (class names such as "ingredients" or "instructions", used by WPRM, Tasty, Mediavine Create,
// EasyRecipe and most themes). Ingredients and steps are the lines under an "Ingredients"/"Instructions" heading
// (several languages), or the lines of the best such container. Title, image, description, author and language come
// from the page's meta tags.
import { absoluteUrl, cleanText, LIMITS, parseDuration, parseYield, truncate } from './clean.js'
import { classAndId, isElement, SKIPPED, type AnyNode, type Element, type Page } from './dom.js'
import { groupHeader, groupName, ingredientsFromLines, stepsFromLines, stripNumbering } from './lines.js'
import type { PageContext, RawIngredient, RawRecipe, RawStep } from './types.js'

type Kind = 'ingredients' | 'instructions'

export interface Line {
  text: string
  /** 1-6 inside <h1>-<h6>, else 0. */
  level: number
  /** Inside a list item. */
  item: boolean
  /** Mostly bold text (a heading written as <p><strong>...</strong></p>). */
  bold: boolean
  /** Mostly link text (menus, tag clouds, "related" lists). */
  link: boolean
  kind: Kind | null
  /** The outermost element of the run of containers marked `kind`. */
  container: Element | null
  /** The innermost block element the line belongs to. */
  block: AnyNode
  /** The nearest list (ul, ol) around the line, and whether it is ordered. */
  list: Element | null
  ordered: boolean
}

const MAX_ELEMENTS = 400_000
const MAX_LINES = 30_000
const MAX_LINE_CHARS = 5000

const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li',
  'main', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'td', 'th', 'ul', 'summary', 'tbody', 'thead', 'label'])
const SKIP = new Set([...SKIPPED, 'nav', 'footer', 'figcaption'])
const SKIP_ROLES = new Set(['navigation', 'contentinfo', 'search', 'menu', 'menubar', 'dialog', 'alertdialog'])
/** Class names of page furniture: menus, breadcrumbs, widgets, comment lists, share bars. */
const FURNITURE_CLASS = /^(?:menu|sub-menu|nav|navbar|navigation|breadcrumbs?|widget|comment-list|commentlist|comments|related-posts|related-recipes|share|sharing|social-sharing|social-share|social|screen-reader-text|sr-only|visually-hidden)$|^(?:menu|nav|widget|breadcrumb)[-_]/

const INGREDIENT_CLASS = /ingr[eé]dien|zutat|zutaten|składnik|malzeme/
const INSTRUCTION_CLASS = /instruction|direction|method|preparation|zubereitung|preparazione|bereiding|procedure|(?:^|[-_ ])steps?(?:$|[-_ ])/

/** The kind of one class name; with both words the last one names the thing ("instruction-ingredients"). */
function tokenKind (token: string): Kind | null {
  const ingredient = token.search(INGREDIENT_CLASS)
  const instruction = token.search(INSTRUCTION_CLASS)
  if (ingredient < 0 && instruction < 0) return null
  return ingredient > instruction ? 'ingredients' : 'instructions'
}

function classKind (el: Element): Kind | null {
  const names = classAndId(el)
  if (names.trim() === '') return null
  let kind: Kind | null = null
  for (const token of names.split(/\s+/)) {
    const k = token === '' ? null : tokenKind(token)
    if (k == null) continue
    if (kind != null && k !== kind) return null
    kind = k
  }
  return kind
}

function isFurniture (el: Element, name: string): boolean {
  if (name === 'body' || name === 'main' || name === 'article' || name === 'html') return false
  const role = el.attribs.role
  if (role != null && SKIP_ROLES.has(role.toLowerCase())) return true
  if (el.attribs['aria-hidden'] === 'true') return true
  const cls = el.attribs.class
  if (cls == null || cls === '') return false
  for (const token of cls.toLowerCase().split(/\s+/)) if (FURNITURE_CLASS.test(token)) return true
  return false
}

interface Open {
  block: AnyNode
  list: Element | null
  ordered: boolean
  kind: Kind | null
  container: Element | null
}

/** The page as lines, in document order. */
export function pageLines (page: Page): Line[] {
  const body: AnyNode = page.body
  const lines: Line[] = []
  let buffer: string[] = []
  let bufferLength = 0
  let boldChars = 0
  let linkChars = 0
  let boldDepth = 0
  let linkDepth = 0
  let levelStack: number[] = []
  let itemDepth = 0
  const open: Open[] = [{ block: body, list: null, ordered: false, kind: null, container: null }]

  const flush = (): void => {
    if (buffer.length === 0) return
    const raw = buffer.join('')
    buffer = []
    const text = truncate(raw.replace(/[\s\u00a0\u200b]+/g, ' ').trim(), MAX_LINE_CHARS)
    const visible = raw.replace(/\s+/g, '').length
    const bold = boldChars > 0 && boldChars >= visible * 0.8
    const link = linkChars > 0 && linkChars >= visible * 0.8
    bufferLength = 0
    boldChars = 0
    linkChars = 0
    if (text === '' || lines.length >= MAX_LINES) return
    const top = open[open.length - 1]
    lines.push({
      text,
      level: levelStack.length > 0 ? levelStack[levelStack.length - 1] : 0,
      item: itemDepth > 0,
      bold,
      link,
      kind: top.kind,
      container: top.container,
      block: top.block,
      list: top.list,
      ordered: top.ordered
    })
  }

  type Frame = { node: AnyNode } | { exit: Element, block: boolean, bold: boolean, link: boolean, level: number, item: boolean }
  const stack: Frame[] = [{ node: body }]
  let budget = MAX_ELEMENTS
  while (stack.length > 0 && budget-- > 0) {
    const frame = stack.pop()!
    if ('exit' in frame) {
      if (frame.block) flush()
      if (frame.bold) boldDepth--
      if (frame.link) linkDepth--
      if (frame.level > 0) levelStack = levelStack.slice(0, -1)
      if (frame.item) itemDepth--
      open.pop()
      continue
    }
    const node = frame.node
    if ((node.type as string) === 'text' && 'data' in node) {
      if (bufferLength < MAX_LINE_CHARS) {
        buffer.push(node.data)
        bufferLength += node.data.length
        if (boldDepth > 0 || linkDepth > 0) {
          const chars = node.data.replace(/\s+/g, '').length
          if (boldDepth > 0) boldChars += chars
          if (linkDepth > 0) linkChars += chars
        }
      }
      continue
    }
    if (!isElement(node)) {
      // The document itself (a page without <body>), or CDATA: walk into it.
      if ('children' in node) {
        for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i] })
      }
      continue
    }
    const name = node.name.toLowerCase()
    if (SKIP.has(name) || isFurniture(node, name)) continue
    if (name === 'br' || name === 'hr') {
      flush()
      continue
    }
    const block = BLOCK.has(name)
    if (block) flush()
    const bold = name === 'strong' || name === 'b'
    const link = name === 'a'
    const level = /^h[1-6]$/.test(name) ? Number(name[1]) : 0
    const item = name === 'li' || name === 'dd'
    if (bold) boldDepth++
    if (link) linkDepth++
    if (level > 0) levelStack = [...levelStack, level]
    if (item) itemDepth++
    const parent = open[open.length - 1]
    const kind = classKind(node)
    const list = name === 'ul' || name === 'ol'
    open.push({
      block: block ? node : parent.block,
      list: list ? node : parent.list,
      ordered: list ? name === 'ol' : parent.ordered,
      ...(kind == null ? { kind: parent.kind, container: parent.container } : kind === parent.kind ? { kind, container: parent.container } : { kind, container: node })
    })
    stack.push({ exit: node, block, bold, link, level, item })
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i] })
  }
  flush()
  return lines
}

// ---------------------------------------------------------------------------------------------------------------
// Section headings

const END = String.raw`(?=$|[\s:(\-–—,.!*])`
const INGREDIENTS_HEADING = new RegExp(String.raw`^(?:the\s+|your\s+)?(?:ingredients?(?:\s+list)?|what you(?:'|’)?ll need|you(?:'|’)?ll need|you will need|shopping list|zutaten|ingrédients|ingredienti|ingredientes|ingrediënten|ingredienten|benodigdheden|ingredienser|ainekset|składniki|suroviny|ingrediencie|sastojci|malzemeler|hozzávalók|ingrediente|συστατικά|ингредиенты|材料)${END}`, 'iu')
const INSTRUCTIONS_HEADING = new RegExp(String.raw`^(?:the\s+)?(?:instructions?|directions?|method|preparation|how to make(?: it)?|steps|procedure|zubereitung|anleitung|so geht(?:'|’)?s|préparation|étapes|preparazione|procedimento|preparación|elaboración|instrucciones|pasos|modo de prepar[oa]|preparo|preparação|bereiding(?:swijze)?|werkwijze|fremgangsmåte|fremgangsmåde|slik gjør du|gör så här|tillagning|instruktioner|valmistus|przygotowanie|sposób przygotowania|postup(?: prípravy)?|príprava|priprema|hazırlanışı|yapılışı|elkészítés|приготовление|作り方)${END}`, 'iu')
const STOP_HEADING = new RegExp(String.raw`^(?:recipe\s+)?(?:notes?|tips?(?: and tricks)?|nutrition(?:al)?(?: facts| information| info)?|video|equipment|comments?|reviews?|related(?: recipes| posts)?|you may also like|share(?: this)?|print(?: recipe)?|leave a (?:reply|comment)|serving suggestions?|storage|faqs?|notizen|tipps?|hinweise?|nährwerte|conseils?|astuces?|consigli|valori nutrizionali|notas?|consejos|opmerkingen|tip|information nutritionnelle|rate this recipe|did you make this|more recipes(?: for)?|meer recepten|mehr rezepte|plus de recettes|altre ricette|más recetas|mais receitas|flere oppskrifter|gerelateerde recepten|verwandte rezepte|ähnliche rezepte|recettes similaires|ricette correlate|recetas relacionadas|receitas relacionadas|lignende oppskrifter)${END}`, 'iu')

const HEADING_TAIL = 40
const TIME_WORDS = /\d|\btime\b|zeit|temps|tempo|tiempo|tijd|\btid\b/i

function headingKind (line: Line): Kind | 'stop' | null {
  if (line.text.length > 60) return null
  const test = (re: RegExp): boolean => {
    const m = re.exec(line.text)
    return m != null && line.text.length - m[0].length <= HEADING_TAIL
  }
  if (test(INGREDIENTS_HEADING)) return 'ingredients'
  // "Preparation time: 15 min" is a time, not the heading of the steps.
  if (test(INSTRUCTIONS_HEADING) && !TIME_WORDS.test(line.text)) return 'instructions'
  if (test(STOP_HEADING)) return 'stop'
  return null
}

/** A line that names a group of the lines below it: a heading, bold text or "For the sauce:". */
function isSubheading (line: Line): boolean {
  if (line.text.length > 60 || line.item) return false
  if (line.level > 0 || (line.bold && !/^\d/.test(line.text))) return true
  return groupHeader(line.text) != null
}

/** Lines that only number a step ("1", "Step 2") or are page furniture. */
const NOISE = /^(?:(?:step|schritt|étape|passo|paso|stap)?\s*\d{1,2}[.:)]?|print|pin|save|jump to recipe|scroll to|\W*)$/i
/** Prose: two sentences or more. */
const SENTENCES = /[.!?]\s+\p{Lu}[^.!?]*[.!?]/u

interface SectionLine { text: string, group: string | null }
interface Section { lines: SectionLine[], score: number, end: number, list: Element | null }

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
    const base = /^[\d½¼¾⅓⅔⅛⅜⅝⅞]/.test(text) ? 1 : /\d/.test(text) ? 0.7 : text.length <= 80 ? 0.4 : 0
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
    if (line.level > 0 && heading.level > 0 && line.level <= heading.level && out.length > 0) break
    if (kind === 'instructions' && line.link) continue
    // Inside a recipe card's steps, the ingredients repeated under each step ("used in this step") are not steps.
    if (heading.kind === kind && line.kind != null && line.kind !== kind) continue
    if (scope == null) {
      const ancestor = commonAncestor(parentOf(heading.block), line.block)
      const tag = ancestor != null && isElement(ancestor) ? ancestor.name.toLowerCase() : 'body'
      scope = tag === 'body' || tag === 'html' ? null : ancestor
    }
    if (isSubheading(line)) {
      group = groupName(line.text)
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
      // A short line between two lists names the next group ("Filling"); anything else ends the list.
      const next = lines[j + 1]
      if (line.text.length <= 60 && next != null && next.item && next.list !== lastItem?.list && headingKind(next) == null) {
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
  if (kind === 'instructions' && items > 0 && items === out.length) score *= 1.3
  return { lines: out, score, end, list }
}

function bestByHeading (lines: Line[], kind: Kind): Section | null {
  let best: Section | null = null
  let tried = 0
  for (let i = 0; i < lines.length && tried < 30; i++) {
    if (headingKind(lines[i]) !== kind) continue
    tried++
    const section = sectionAfter(lines, i, kind)
    if (section.lines.length > 0 && section.score > 0 && (best == null || section.score > best.score)) best = section
  }
  return best
}

function bestByContainer (lines: Line[], kind: Kind): Section | null {
  const groups = new Map<Element, number[]>()
  lines.forEach((line, i) => {
    if (line.kind !== kind || line.container == null) return
    const list = groups.get(line.container)
    if (list == null) groups.set(line.container, [i])
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

function findSection (lines: Line[], kind: Kind): Section | null {
  const byHeading = bestByHeading(lines, kind)
  const byContainer = bestByContainer(lines, kind)
  if (byHeading == null) return byContainer
  if (byContainer == null) return byHeading
  return byContainer.score > byHeading.score * 2 ? byContainer : byHeading
}

/** Steps without a heading: the list that follows the ingredients ("Let's get started!" + a numbered list). */
function listAfter (lines: Line[], ingredients: Section): Section | null {
  const out: SectionLine[] = []
  let list: Element | null = null
  let score = 0
  for (let j = ingredients.end + 1; j < lines.length && j - ingredients.end < 60 && out.length < LIMITS.steps; j++) {
    const line = lines[j]
    const found = headingKind(line)
    if (found != null && found !== 'instructions') break
    if (list == null) {
      if (!line.item || line.list == null || line.list === ingredients.list || line.link) continue
      list = line.list
    } else if (line.list !== list) {
      break
    }
    if (!line.item || NOISE.test(line.text)) continue
    const entry = { text: line.text, group: null }
    out.push(entry)
    score += lineScore(entry, 'instructions', line.link)
  }
  const chars = out.reduce((n, l) => n + l.text.length, 0)
  return out.length >= 2 && chars / out.length >= 30 ? { lines: out, score, end: ingredients.end, list } : null
}

// ---------------------------------------------------------------------------------------------------------------
// Times and yields written as labels ("Prep Time: 10 mins", "Serves 4")

const TIME_LABEL = /^(total(?: time)?|ready in|prep(?:aration)?(?: time)?|cook(?:ing)?(?: time)?|bake(?: time)?|baking time|gesamtzeit|zubereitungszeit|zubereitung|arbeitszeit|vorbereitungszeit|kochzeit|backzeit|garzeit|temps total|temps de préparation|préparation|temps de cuisson|cuisson|tempo totale|tempo di preparazione|preparazione|tempo di cottura|cottura|tiempo total|tiempo de preparación|preparación|tiempo de cocción|cocción|tempo de preparo|tempo total|tijd|totale tijd|bereidingstijd|bereiding|kooktijd|tid|total tid|tilberedningstid)\s*:?\s*(.*)$/i
const PREP_LABEL = /^(?:prep|zubereitung|arbeitszeit|vorbereitung|temps de pr|préparation|tempo di prep|preparazione|tiempo de prep|preparación|tempo de prep|bereiding)/
const COOK_LABEL = /^(?:cook|bake|baking|kochzeit|backzeit|garzeit|temps de cuisson|cuisson|tempo di cottura|cottura|tiempo de cocc|cocción|kooktijd|tilberedning)/
const YIELD_LABEL = /^(?:serves|servings?|yields?|makes|portions?|porties|portionen|personen|personnes|porzioni|raciones|porciones|porções|porsjoner|portioner|für)\s*:?\s*(.*)$/i
const YIELD_VALUE = /^(\d+(?:\s*(?:-|–|to|à|a|bis)\s*\d+)?)\s+(?:servings?|portions?|people|persons?|personnes|personen|portionen|porzioni|porciones|porções|porsjoner|portioner|porties|pers\.?)$/i
/** What follows a time label: a colon, or a number right away. */
const LABEL_VALUE = /^\s*(?::|\d|[½¼¾])/
const SHORT_VALUE = /^\d{1,3}(?:\s*(?:min|mins|minutes|h|hr|hrs|hours?))?\.?$/i

/** "Prep Time: 10 mins", "Cuisson 1h10", "Serves 4", "6 personnes": a line of the recipe's summary. */
function isTimeOrYield (text: string): boolean {
  if (text.length > 50) return false
  const time = TIME_LABEL.exec(text)
  if (time != null && LABEL_VALUE.test(text.slice(time[1].length)) && parseDuration(time[2]) != null) return true
  if (YIELD_VALUE.test(text)) return true
  const labelled = YIELD_LABEL.exec(text)
  return labelled != null && /^\d/.test(labelled[1])
}

/** Times and yields written as labels near each other ("Prep Time: 10 mins", "10" + "Prep Time", "Serves 4"). */
function labelled (lines: Line[], from: number, to: number): Partial<RawRecipe> {
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

// ---------------------------------------------------------------------------------------------------------------
// Meta tags

/** The page's <meta> values by property, name, itemprop and http-equiv (first one wins). */
function metaValues (page: Page): (...keys: string[]) => string | null {
  const values = new Map<string, string>()
  for (const el of page.metas) {
    const content = el.attribs.content
    if (content == null || content.trim() === '') continue
    for (const attribute of ['property', 'name', 'itemprop', 'http-equiv']) {
      const key = el.attribs[attribute]?.trim().toLowerCase()
      if (key != null && key !== '' && !values.has(key)) values.set(key, content)
    }
  }
  return (...keys) => {
    for (const key of keys) {
      const value = values.get(key.toLowerCase())
      if (value != null) return value
    }
    return null
  }
}

/** The href of the first <link> whose rel includes `rel`. */
export function linkHref (page: Page, rel: string): string | null {
  for (const el of page.links) {
    if ((el.attribs.rel ?? '').toLowerCase().split(/\s+/).includes(rel) && el.attribs.href != null) return el.attribs.href
  }
  return null
}

const IMAGE_NOISE = /logo|icon|avatar|sprite|spinner|placeholder|blank|pixel|emoji|gravatar|badge|signature|\/themes?\/|\.svg(?:$|\?)/i
const PICTURE_CLASS = /recipe|image|photo|picture|hero|featured|thumb/i
const BACKGROUND_URL = /background(?:-image)?\s*:[^;]*?url\(\s*['"]?([^'")\s]{1,2048})/i

/**
 * The picture of a page that names none in its meta tags: a CSS background of an element named like a picture
 * ("recipe-image", "hero"), else the first sizeable <img> of the article, leaving logos, icons and theme assets.
 */
function contentImage (page: Page, base: URL | null): string | null {
  for (const el of page.styled.slice(0, 100)) {
    if (!PICTURE_CLASS.test(classAndId(el))) continue
    const m = BACKGROUND_URL.exec((el.attribs.style ?? '').slice(0, 2000))
    const url = m == null || IMAGE_NOISE.test(m[1]) ? null : absoluteUrl(m[1], base)
    if (url != null) return url
  }
  for (const { img, inContent } of page.images.slice(0, 500)) {
    if (!inContent) continue
    const width = Number(img.attribs.width ?? '0')
    const height = Number(img.attribs.height ?? '0')
    if ((width > 0 && width < 150) || (height > 0 && height < 150) || IMAGE_NOISE.test(classAndId(img))) continue
    for (const name of ['src', 'data-src', 'data-lazy-src', 'data-original']) {
      const value = img.attribs[name]
      if (value == null || IMAGE_NOISE.test(value)) continue
      const url = absoluteUrl(value, base)
      if (url != null) return url
    }
  }
  return null
}

const alnum = (text: string): string => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '')

/** Separators between a title and the site's name: " | ", " - ", " – ", " :: ", and one-sided "Cake- Site", "Cake -Site". */
const TITLE_SEPARATOR = /\s+(?:[|–—·»]{1,2}|::?|-)\s+|\s+[-–—|](?=\S)|(?<=\S)[-–—|]\s+/g

/** Names a site goes by: its og:site_name, and the labels of its host ("ricette.giallozafferano.it" -> giallozafferano). */
function siteNames (siteName: string | null, host: string | null): string[] {
  const names = new Set<string>()
  if (siteName != null && alnum(siteName).length >= 3) names.add(alnum(siteName))
  if (host != null) {
    const labels = host.toLowerCase().split('.').filter(l => !['www', 'm', 'amp'].includes(l))
    if (labels.length >= 2) names.add(alnum(labels.slice(-2).join('')))
    for (const label of labels.slice(0, -1)) if (label.length >= 4) names.add(alnum(label))
  }
  return [...names].filter(n => n.length >= 3)
}

/** Removes the site's name from a page title: "Strawberry Gelato - Lidia" -> "Strawberry Gelato". */
export function stripSiteName (title: string, siteName: string | null, host: string | null): string {
  const text = title.replace(/\s*[-–—|·»:]+\s*$/, '').trim()
  const parts: Array<{ text: string, start: number, end: number, pipe: boolean }> = []
  let from = 0
  let pipeBefore = false
  for (const m of text.matchAll(TITLE_SEPARATOR)) {
    parts.push({ text: text.slice(from, m.index), start: from, end: m.index, pipe: pipeBefore })
    pipeBefore = /[|·»]/.test(m[0])
    from = m.index + m[0].length
    if (parts.length > 20) break
  }
  parts.push({ text: text.slice(from), start: from, end: text.length, pipe: pipeBefore })
  if (parts.length < 2) return text
  const names = siteNames(siteName, host)
  const isSite = (part: string): boolean => {
    const p = alnum(part)
    if (p.length < 3) return false
    return names.some(n => p === n || (n.length >= 4 && p.includes(n)) || (p.length >= 4 && n.includes(p)))
  }
  let start = 0
  let end = parts.length
  // The last part after a pipe is the site's name or section ("Soup | Recipes"); otherwise it must name the site.
  while (end - start > 1 && (isSite(parts[end - 1].text) || (parts[end - 1].pipe && parts[end - 1].text.length <= 40))) end--
  while (end - start > 1 && isSite(parts[start].text)) start++
  return text.slice(parts[start].start, parts[end - 1].end).trim()
}

export function pageMeta (page: Page, context: PageContext): RawRecipe {
  const out: RawRecipe = {}
  const meta = metaValues(page)
  const siteName = meta('og:site_name', 'application-name')
  const host = context.base?.hostname ?? null
  // The <h1> when the page's <title> contains it (the title minus the site's name and decorations), else the
  // <title> without the site's name, else og:title, else the <h1>.
  const h1 = cleanText(page.h1 ?? '', LIMITS.title * 2)
  const titleTag = cleanText(page.title ?? '', LIMITS.title * 2)
  const site = siteName == null ? null : cleanText(siteName)
  if (h1 !== '' && alnum(h1).length >= 3 && alnum(titleTag).includes(alnum(h1))) {
    out.title = truncate(h1, LIMITS.title)
  } else {
    for (const candidate of [titleTag, meta('og:title'), meta('twitter:title'), h1]) {
      const text = cleanText(candidate ?? '', LIMITS.title * 2)
      if (text === '') continue
      out.title = truncate(stripSiteName(text, site, host), LIMITS.title)
      break
    }
  }
  const description = cleanText(meta('og:description', 'description', 'twitter:description') ?? '', LIMITS.description)
  if (description !== '') out.description = description
  const image = absoluteUrl(meta('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src',
    'thumbnailUrl'), context.base) ?? absoluteUrl(linkHref(page, 'image_src'), context.base) ??
    contentImage(page, context.base)
  if (image != null) out.imageUrl = image
  const author = cleanText(meta('author', 'article:author', 'twitter:creator') ?? '', LIMITS.short)
  if (author !== '' && !/^https?:/i.test(author)) out.author = author
  const lang = cleanText(page.lang ?? meta('og:locale', 'language', 'content-language') ?? '', LIMITS.language)
  if (lang !== '') out.language = lang.replace('_', '-')
  return out
}

// ---------------------------------------------------------------------------------------------------------------

function ingredientsOfSection (section: Section): RawIngredient[] {
  const result: RawIngredient[] = []
  // Lines are grouped by their heading; "For the sauce:" lines inside a group still start a group.
  let group: string | null = null
  let pending: string[] = []
  for (const line of section.lines) {
    if (line.group !== group) {
      result.push(...ingredientsFromLines(pending, group))
      pending = []
      group = line.group
    }
    pending.push(cleanText(line.text, LIMITS.line))
  }
  result.push(...ingredientsFromLines(pending, group))
  return result.slice(0, LIMITS.ingredients)
}

function stepsOfSection (section: Section): RawStep[] {
  const result: RawStep[] = []
  let group: string | null = null
  let pending: string[] = []
  for (const line of section.lines) {
    if (line.group !== group) {
      result.push(...stepsFromLines(pending, group ?? undefined))
      pending = []
      group = line.group
    }
    pending.push(cleanText(line.text, LIMITS.line))
  }
  result.push(...stepsFromLines(pending, group ?? undefined))
  return result.slice(0, LIMITS.steps)
}

const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/**
 * The page's list items that are found in `text` (steps given as one text that also holds an article's prose,
 * links and tips): each a step, under the heading before it. Null when they cover too little of the text.
 */
export function listedStepsWithin (lines: Line[], text: string): RawStep[] | null {
  const whole = letters(text.slice(0, 100_000))
  if (whole.length < 40) return null
  const found: Array<{ step: RawStep, ordered: boolean, length: number }> = []
  const seen = new Set<string>()
  let section: string | undefined
  let skipping = false
  let checked = 0
  for (const line of lines) {
    if (isSubheading(line)) {
      // Lists under "Notes" or "More recipes" are not steps even when the text repeats them.
      skipping = headingKind(line) === 'stop'
      section = groupName(line.text)
      continue
    }
    if (skipping || !line.item || line.link || line.text.length < 15 || checked++ > 1000) continue
    const key = letters(line.text)
    if (key.length < 10 || seen.has(key) || !whole.includes(key)) continue
    seen.add(key)
    const text = stripNumbering(cleanText(line.text, LIMITS.line))
    found.push({ step: section == null ? { text } : { text, section }, ordered: line.ordered, length: key.length })
    if (found.length >= LIMITS.steps) break
  }
  // Steps are a numbered list when the page has one.
  const ordered = found.filter(f => f.ordered)
  const chosen = ordered.length >= 2 ? ordered : found
  const covered = chosen.reduce((n, f) => n + f.length, 0)
  return chosen.length >= 2 && covered >= whole.length * 0.25 ? chosen.map(f => f.step) : null
}

/**
 * Groups for ingredients that came without them (schema.org has no groups): the heading each line sits under in the
 * page's ingredient list, when the page groups them (two groups or more) and shows at least half of the lines.
 */
export function pageGroups (lines: Line[], ingredients: RawIngredient[]): RawIngredient[] | null {
  const section = findSection(lines, 'ingredients')
  if (section == null) return null
  const page = section.lines.map(l => ({ key: letters(l.text), group: l.group }))
  const groups = new Set<string>()
  let matched = 0
  const out = ingredients.map(ingredient => {
    const key = letters(ingredient.text)
    if (key.length < 3) return ingredient
    const hit = page.find(p => p.key === key) ?? page.find(p => p.key.includes(key))
    if (hit == null) return ingredient
    matched++
    if (hit.group != null) groups.add(hit.group)
    return { ...ingredient, group: hit.group }
  })
  return groups.size >= 2 && matched >= ingredients.length / 2 ? out : null
}

/**
 * What the page itself shows: meta tags, and with `lines` (the page read by pageLines) the ingredients and steps under
 * their headings and labelled times and yields.
 */
export function extractHeuristics (page: Page, context: PageContext, lines: Line[] | null): RawRecipe {
  const out = pageMeta(page, context)
  if (lines == null) return out
  const ingredients = findSection(lines, 'ingredients')
  const instructions = findSection(lines, 'instructions') ?? (ingredients == null ? null : listAfter(lines, ingredients))
  if (ingredients != null) {
    const result = ingredientsOfSection(ingredients)
    if (result.length > 0) out.ingredients = result
  }
  if (instructions != null) {
    const result = stepsOfSection(instructions)
    if (result.length > 0) out.instructions = result
  }
  // Times and yields are read above the end of the recipe, not from the related recipes below it.
  const end = Math.max(ingredients?.end ?? -1, instructions?.end ?? -1)
  Object.assign(out, labelled(lines, 0, end < 0 ? lines.length : end + 1))
  return out
}
