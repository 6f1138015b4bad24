// Page heuristics for pages without structured data (and to fill what the structured data lacks): the page is read
// once as a sequence of lines that remember their block (heading level, list item, bold) and the recipe-looking
// container they sit in (class names such as "ingredients" or "instructions", used by WPRM, Tasty, Mediavine Create,
// EasyRecipe and most themes). Ingredients and steps are the lines under an "Ingredients"/"Instructions" heading
// (several languages), or the lines of the best such container; without either, the ingredients are the list shaped
// like one (quantities, measures) and the steps the list or the paragraphs that follow it. Where the structured data
// gives only part of a list the page shows, the page's list is taken. Title (the <h1> the <title> or og:title names),
// image, description, author and language come from the page's head.
import { absoluteUrl, cleanText, LIMITS, parseDuration, parseYield, truncate } from './clean.js'
import { classAndId, isElement, SKIPPED, type AnyNode, type Element, type Page } from './dom.js'
import { groupHeader, groupName, ingredientsFromLines, startsLikeIngredient, startsWithQuantity, stepsFromLines, stripBullet, stripNumbering } from './lines.js'
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
  'main', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul', 'summary', 'tbody', 'thead', 'label'])
/** Table cells: the cells of a row read as one line ("200 g" | "flour"), a space between them. */
const CELL = new Set(['td', 'th'])
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

/** Class names holding these words are sign-up boxes and adverts wherever they sit ("article-newsletter-signup-cta"). */
const PROMO_CLASS = /newsletter|subscribe|signup|sign-up|optin|opt-in|advert/

function isFurniture (el: Element, name: string, main: Set<AnyNode>): boolean {
  if (name === 'body' || name === 'main' || name === 'article' || name === 'html') return false
  const role = el.attribs.role
  if (role != null && SKIP_ROLES.has(role.toLowerCase())) return true
  if (el.attribs['aria-hidden'] === 'true') return true
  const cls = el.attribs.class
  // A "widget" or "widget-area" around the page's <h1> (or marked role=main) is the page's content, not its furniture;
  // a heading classed "widget-title" is a heading (the widget around it, if any, is furniture by its own class).
  if (cls == null || cls === '' || main.has(el) || role === 'main' || /^h[1-6]$/.test(name)) return false
  for (const token of cls.toLowerCase().split(/\s+/)) if (FURNITURE_CLASS.test(token) || PROMO_CLASS.test(token)) return true
  return false
}

const HIDDEN_STYLE = /(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)/i
/** Responsive utilities ("hidden md:block", "d-none d-lg-block") show what the bare class hides. */
const SHOWN_SOMEWHERE = /:|^d-\w+-(?:block|flex|inline|grid|table)/

/**
 * Not shown: the hidden attribute, display:none, or a bare "hidden"/"d-none" class. Only what a list item hides is
 * left out (substitutes, amounts in other units): a hidden block may be the page's whole printable recipe.
 */
function isHidden (el: Element): boolean {
  if (el.attribs.hidden != null) return true
  const style = el.attribs.style
  if (style != null && HIDDEN_STYLE.test(style.slice(0, 500))) return true
  const cls = el.attribs.class
  if (cls == null || !/(?:^|\s)(?:hidden|d-none)(?:\s|$)/i.test(cls)) return false
  return !cls.split(/\s+/).some(token => SHOWN_SOMEWHERE.test(token))
}

interface Open {
  block: AnyNode
  list: Element | null
  ordered: boolean
  kind: Kind | null
  container: Element | null
  /** Inside a cell of a row of several cells (a row is one line: "1 whole" | "tomatoes<br>ripe"). */
  cell: boolean
}

/** Whether a table row has two cells or more (counting stops at two). */
function severalCells (row: AnyNode | null): boolean {
  if (row == null || !('children' in row)) return false
  let cells = 0
  for (const child of row.children) if (isElement(child) && CELL.has(child.name.toLowerCase()) && ++cells >= 2) return true
  return false
}

/** The elements around the page's <h1>s (a bounded walk up from each). */
function aroundHeadings (page: Page): Set<AnyNode> {
  const out = new Set<AnyNode>()
  for (const h1 of page.h1Elements) {
    let depth = 0
    for (let n: AnyNode | null = h1.parent; n != null && depth < 200 && !out.has(n); n = n.parent, depth++) out.add(n)
  }
  return out
}

const ACTIVE = /^(?:active|is-active|selected|is-selected|current|is-current)$/
/** State classes that go with "active" ("tab-pane fade active show", Bootstrap's "fade in active"). */
const SHOWN = /^(?:show|in|open|visible|is-visible)$/

/**
 * Tab panes: sibling elements alike (same tag, same classes but for "active") of which exactly one is marked
 * active ("<ul class="list is-active">" among the same list for other numbers of servings). The others are hidden
 * until chosen. Null when there are none. (One look at each child.)
 */
function inactivePanes (el: Element): Set<AnyNode> | null {
  if (el.children.length < 2) return null
  const groups = new Map<string, { members: Element[], active: number }>()
  for (const child of el.children) {
    if (!isElement(child) || child.attribs.class == null || child.attribs.class.length > 300) continue
    const tokens = child.attribs.class.toLowerCase().split(/\s+/).filter(t => t !== '')
    const active = tokens.some(t => ACTIVE.test(t))
    const key = `${child.name} ${tokens.filter(t => !ACTIVE.test(t) && !SHOWN.test(t)).sort().join(' ')}`
    let group = groups.get(key)
    if (group == null) {
      if (groups.size >= 50) continue
      group = { members: [], active: 0 }
      groups.set(key, group)
    }
    group.members.push(child)
    if (active) group.active++
  }
  let out: Set<AnyNode> | null = null
  for (const group of groups.values()) {
    if (group.active !== 1 || group.members.length < 2) continue
    out ??= new Set()
    for (const member of group.members) {
      if (!member.attribs.class.toLowerCase().split(/\s+/).some(t => ACTIVE.test(t))) out.add(member)
    }
  }
  // Alternatives alike in their attributes ("<div data-method="...">" per appliance) of which some are hidden and
  // some shown: the shown ones are the page's.
  const alike = new Map<string, { shown: number, hidden: Element[] }>()
  for (const child of el.children) {
    if (!isElement(child)) continue
    const names = Object.keys(child.attribs).filter(n => n !== 'class' && n !== 'style' && n !== 'hidden' && n !== 'id')
    if (names.length === 0 || names.length > 10) continue
    const key = `${child.name} ${names.sort().join(' ')}`
    let group = alike.get(key)
    if (group == null) {
      if (alike.size >= 50) continue
      group = { shown: 0, hidden: [] }
      alike.set(key, group)
    }
    if (isHidden(child)) group.hidden.push(child)
    else group.shown++
  }
  for (const group of alike.values()) {
    if (group.shown === 0 || group.hidden.length === 0) continue
    out ??= new Set()
    for (const member of group.hidden) out.add(member)
  }
  return out
}

/** The page as lines, in document order. */
export function pageLines (page: Page): Line[] {
  const body: AnyNode = page.body
  const main = aroundHeadings(page)
  const lines: Line[] = []
  let buffer: string[] = []
  let bufferLength = 0
  let boldChars = 0
  let linkChars = 0
  let boldDepth = 0
  let linkDepth = 0
  let levelStack: number[] = []
  let itemDepth = 0
  const open: Open[] = [{ block: body, list: null, ordered: false, kind: null, container: null, cell: false }]

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
    // An <aside> inside a list item is a box set into a step ("Learn more" and a link to an article), not the step.
    if (SKIP.has(name) || isFurniture(node, name, main) || (itemDepth > 0 && (isHidden(node) || name === 'aside'))) continue
    if (name === 'br' && open[open.length - 1].cell && bufferLength < MAX_LINE_CHARS) {
      buffer.push(' ')
      bufferLength++
      continue
    }
    if (name === 'br' || name === 'hr') {
      flush()
      continue
    }
    const block = BLOCK.has(name)
    if (block) flush()
    if (CELL.has(name) && bufferLength < MAX_LINE_CHARS) {
      buffer.push(' ')
      bufferLength++
    }
    // A header cell is bold: the name of the rows below it ("Tomato sauce" over its ingredients).
    const bold = name === 'strong' || name === 'b' || name === 'th'
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
      cell: CELL.has(name) ? severalCells(node.parent) : name === 'table' ? false : parent.cell,
      ...(kind == null ? { kind: parent.kind, container: parent.container } : kind === parent.kind ? { kind, container: parent.container } : { kind, container: node })
    })
    stack.push({ exit: node, block, bold, link, level, item })
    const inactive = inactivePanes(node)
    for (let i = node.children.length - 1; i >= 0; i--) {
      if (inactive == null || !inactive.has(node.children[i])) stack.push({ node: node.children[i] })
    }
  }
  flush()
  return joinAmounts(lines)
}

/**
 * A quantity alone ("500", "⅓ cups (80ml)", "1.5 El"): the amount of an ingredient whose name the page sets in a
 * block of its own. (One character class per part, each bounded: no backtracking on long lines.)
 */
const AMOUNT_ONLY = /^[\d½¼¾⅓⅔⅛⅜⅝⅞][\d½¼¾⅓⅔⅛⅜⅝⅞.,/ \-–]{0,12}(?:(?:g|gr|kg|mg|ml|cl|dl|l|oz|fl\.? oz|lbs?|pounds?|ounces?|cups?|tbsps?|tsps?|tablespoons?|teaspoons?|pinch|dash|el|tl|ess|tee|msk|tsk|c\. à [sc]\.?|cs|cc|x)\.?)?(?: ?\([^()]{1,20}\))?$/i

/** The list item a line of a list item sits in (a few levels up at most). */
function itemOf (line: Line): Element | null {
  if (!line.item) return null
  let node: AnyNode | null = line.block
  for (let depth = 0; node != null && depth < 6; node = node.parent, depth++) {
    if (isElement(node) && node.name.toLowerCase() === 'li') return node
  }
  return null
}

/**
 * Amounts set apart from their ingredient ("<span>⅓ cups</span><div>olive oil</div>" in one list item, or a number
 * beside a paragraph in an ingredients container) joined with it into one line, as the page reads.
 */
function joinAmounts (lines: Line[]): Line[] {
  const out: Line[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const next = lines[i + 1]
    if (next != null && line.level === 0 && next.level === 0 && AMOUNT_ONLY.test(line.text) &&
      next.text.length <= 250 && /^\p{L}/u.test(next.text) && sameIngredient(line, next)) {
      out.push({ ...next, text: `${line.text} ${next.text}` })
      i++
      continue
    }
    out.push(line)
  }
  return out
}

/** Two lines of one ingredient: in one list item, or side by side in an ingredients container. */
function sameIngredient (amount: Line, name: Line): boolean {
  const item = itemOf(amount)
  if (item != null) {
    let node: AnyNode | null = name.block
    for (let depth = 0; node != null && depth < 8; node = node.parent, depth++) if (node === item) return true
    return false
  }
  // Side by side: in one parent ("<div>200 g</div><div>flour</div>"); an amount closing one block of a name and its
  // amount ("<div><div>Pine nuts</div><div>70 g</div></div>") belongs to the name before it, not the one after.
  if (amount.kind !== 'ingredients' || name.kind !== 'ingredients' || amount.container !== name.container || amount.item || name.item) return false
  const around = blockAround(name.block)
  return amount.block === around || blockAround(amount.block) === around
}

/** The nearest block element around a node (a few levels up at most). */
function blockAround (node: AnyNode): AnyNode | null {
  let n: AnyNode | null = node.parent
  for (let depth = 0; n != null && depth < 8; n = n.parent, depth++) if (isElement(n) && BLOCK.has(n.name.toLowerCase())) return n
  return null
}

// ---------------------------------------------------------------------------------------------------------------
// Section headings

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

function headingKind (line: Line): Kind | 'stop' | null {
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
function isSubheading (line: Line): boolean {
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
const NOISE = /^(?:(?:step|schritt|étape|passo|paso|stap)?\s*\d{1,2}[.:)]?|print|pin|save|jump to recipe|scroll to|(?:units\s+)?scale|\d(?:[.,]5)?x(?:\s+\d(?:[.,]5)?x){0,5}|cook mode(?:\s[^.!?]{0,60})?|[^\p{L}\p{N}]*)$/iu
/** "2 Mix the filling", "Step 3: Bake": a step's numbered title. */
const STEP_TITLE = /^(?:(?:step|schritt|étape|etape|passo|paso|stap|korak|krok|steg|trin)\s*)?\d{1,2}\s*[.):]?\s+\p{L}/iu
/** Prose: two sentences or more (a word of two letters or more ends the first: "z. B. Tellicherry" is not two). */
const SENTENCES = /\p{L}{2}[.!?]\s+\p{Lu}[^.!?]{3,}[.!?]/u

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

function findSection (lines: Line[], kind: Kind, after = -1): Section | null {
  const byHeading = bestByHeading(lines, kind, after)
  const byContainer = bestByContainer(lines, kind)
  if (byHeading == null) return byContainer
  if (byContainer == null) return byHeading
  return byContainer.score > byHeading.score * 2 ? byContainer : byHeading
}

/** Steps without a heading: the list that follows the ingredients ("Let's get started!" + a numbered list). */
function listAfter (lines: Line[], ingredients: Section): Section | null {
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
function betterOf (byHeading: Section | null, lines: Line[], recipe: boolean): Section | null {
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
function orderedListAnywhere (lines: Line[], ingredients: Section): Section | null {
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
function proseAfter (lines: Line[], ingredients: Section): Section | null {
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

// ---------------------------------------------------------------------------------------------------------------
// Times and yields written as labels ("Prep Time: 10 mins", "Serves 4")

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
function isTimeOrYield (text: string): boolean {
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

const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
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

/** A wiki's namespace before the title ("Cookbook:Pumpkin Pie"): a capitalised word and a colon without a space. */
const NAMESPACE = /^\p{Lu}\p{Ll}{2,30}:(?=[\p{L}\p{N}])/u

function withoutNamespace (title: string): string {
  const m = NAMESPACE.exec(title)
  return m == null || title.length - m[0].length < 3 ? title : title.slice(m[0].length)
}

export function pageMeta (page: Page, context: PageContext): RawRecipe {
  const out: RawRecipe = {}
  const meta = metaValues(page)
  const siteName = meta('og:site_name', 'application-name')
  const host = context.base?.hostname ?? null
  // The first <h1> that the page's <title> or og:title contains (the title minus the site's name and decorations)
  // and that is not the site's name (a theme's logo), else the <title> without the site's name, else og:title, else
  // the <h1>.
  const titleTag = cleanText(page.title ?? '', LIMITS.title * 2)
  const ogTitle = cleanText(meta('og:title') ?? '', LIMITS.title * 2)
  const site = siteName == null ? null : cleanText(siteName)
  const names = siteNames(site, host)
  // A part of a title split over several <h1>s ("Baba ghanoush" + "with potato chips") is not the title: the <h1>
  // starts the title, or is most of it.
  const within = [titleTag, ogTitle].map(t => ({ whole: letters(t), stripped: letters(stripSiteName(t, site, host)) }))
  const h1s = page.h1s.map(h => withoutNamespace(cleanText(h, LIMITS.title * 2))).filter(h => h !== '')
  const h1 = h1s.find(h => {
    const key = letters(h)
    return key.length >= 3 && !names.includes(alnum(h)) &&
      within.some(w => w.stripped.startsWith(key) || (w.whole.includes(key) && key.length >= w.stripped.length * 0.7))
  })
  if (h1 != null) {
    out.title = truncate(h1, LIMITS.title)
  } else {
    // og:title is the <title> without its decorations when the <title> contains it.
    const ogFirst = ogTitle !== '' && letters(ogTitle).length >= 3 && letters(titleTag).includes(letters(ogTitle))
    for (const candidate of ogFirst ? [ogTitle] : [titleTag, ogTitle, meta('twitter:title'), h1s[0]]) {
      const text = cleanText(candidate ?? '', LIMITS.title * 2)
      if (text === '') continue
      out.title = truncate(withoutNamespace(stripSiteName(text, site, host)), LIMITS.title)
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

const MAX_COMPARED = 50

/** How many of `keys` some line of `page` contains. */
function containedCount (keys: string[], page: string[]): number {
  let found = 0
  for (const key of keys) if (page.some(p => p.includes(key))) found++
  return found
}

/**
 * The page's own list of ingredients when the structured data gives a part of it: every structured line is on the
 * page, and the page shows more lines, each with a quantity (a group the data left out), or the same lines with
 * quantities the data lacks; or the page's lines match the data's line for line and say more (richer). Null when the
 * structured lines look complete, or when the page's list carries anything else (nutrition tables, scaled copies of
 * the list, notes): then the structured data is the cleaner source.
 */
export function pageIngredientsBeyond (lines: Line[], ingredients: RawIngredient[]): RawIngredient[] | null {
  // (A list the data shortened is a short list: the comparison stays small.)
  if (ingredients.length === 0 || ingredients.length > MAX_COMPARED) return null
  const section = findSection(lines, 'ingredients')
  if (section == null) return null
  const page = ingredientsOfSection(section)
  const keys = ingredients.map(i => letters(i.text)).filter(k => k.length >= 3)
  const pageKeys = page.map(i => letters(i.text))
  if (keys.length === 0 || page.length > ingredients.length * 2.5 || new Set(pageKeys).size < page.length * 0.9) return null
  if (richer(page, ingredients)) return page
  if (containedCount(keys, pageKeys) < keys.length * 0.9) return null
  const extra = page.filter((_, i) => !keys.some(k => pageKeys[i].includes(k)))
  const more = extra.length >= 2 && extra.every(i => startsWithQuantity(i.text) && i.text.length <= 120) &&
    page.length >= ingredients.length * 1.2
  const amounts = extra.length <= 1 && page.length <= ingredients.length + 1 &&
    ingredients.every(i => !/\d/.test(i.text)) && page.filter(i => startsWithQuantity(i.text)).length >= page.length / 2
  return more || amounts ? page : null
}

/** The words of a line, numbers left out. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/\p{L}{2,}/gu)?.slice(0, 50) ?? []

/**
 * The page's lines say more than the data's, line for line: as many lines, each holding most of the words of the
 * data's line, and words or amounts the data left out ("thinly sliced", a note, "2 tsp" before "dijon mustard").
 * The same lines with amounts in a second unit ("1 cup (240 g)") add nothing: the data is as good.
 */
function richer (page: RawIngredient[], ingredients: RawIngredient[]): boolean {
  if (page.length !== ingredients.length || page.length < 2) return false
  let added = 0
  let total = 0
  for (let i = 0; i < page.length; i++) {
    if (page[i].text.length > 250) return false
    const key = letters(page[i].text)
    const own = letters(ingredients[i].text)
    const words = wordsOf(ingredients[i].text)
    if (words.filter(w => key.includes(w)).length < words.length * 0.6) return false
    total += words.length
    added += wordsOf(page[i].text.replace(/\([^()]*\)/g, ' ')).filter(w => w.length >= 3 && !own.includes(w)).length
    if (!/[\d½¼¾⅓⅔⅛⅜⅝⅞]/.test(ingredients[i].text) && startsWithQuantity(page[i].text)) added += 2
  }
  return added >= Math.max(2, total * 0.1)
}

/**
 * The page's own steps when the structured data gives a few of them: every structured step is in the page's steps,
 * which are twice as many and hold three times the text. Null when the structured steps look complete.
 */
export function pageStepsBeyond (lines: Line[], steps: RawStep[]): RawStep[] | null {
  if (steps.length === 0 || steps.length > MAX_COMPARED) return null
  const section = findSection(lines, 'instructions')
  if (section == null) return null
  const page = stepsOfSection(section)
  const keys = steps.map(s => letters(s.text)).filter(k => k.length >= 3)
  const pageText = letters(page.map(s => s.text).join(' ').slice(0, 100_000))
  const length = keys.reduce((n, k) => n + k.length, 0)
  if (keys.length === 0 || containedCount(keys, [pageText]) < keys.length * 0.9) return null
  return page.length >= steps.length * 2 + 2 && pageText.length >= length * 3 ? page : null
}

const MAX_TITLE = 80
const MAX_BODY_LINES = 20

/**
 * Steps the structured data gives as their titles only ("Cook the rice noodles", "Serve"): each title the page shows,
 * in order, with the text under it up to the next title (or, for the last, up to the next heading). Null unless every
 * title is found with text under it, and the text says three times more than the titles.
 */
export function pageStepsUnderTitles (lines: Line[], steps: RawStep[]): RawStep[] | null {
  if (steps.length < 2 || steps.length > MAX_COMPARED) return null
  if (steps.some(s => s.text.length > MAX_TITLE || /[.!?。]$/.test(s.text))) return null
  const keys = steps.map(s => letters(s.text))
  const out: RawStep[] = []
  let titleChars = 0
  let bodyChars = 0
  let j = 0
  for (let i = 0; i < steps.length; i++) {
    while (j < lines.length && letters(lines[j].text) !== keys[i]) j++
    if (j >= lines.length) return null
    const body: string[] = []
    let k = j + 1
    for (; k < lines.length && body.length < MAX_BODY_LINES; k++) {
      const line = lines[k]
      const key = letters(line.text)
      if (key === keys[i + 1] || line.level > 0 || headingKind(line) != null) break
      if (!NOISE.test(line.text) && !line.link) body.push(cleanText(line.text, LIMITS.line))
    }
    if (body.length === 0) return null
    titleChars += steps[i].text.length
    bodyChars += body.reduce((n, b) => n + b.length, 0)
    const text = truncate(`${steps[i].text}: ${body.join(' ')}`, LIMITS.line)
    out.push(steps[i].section == null ? { text } : { text, section: steps[i].section })
    j = k
  }
  return bodyChars >= titleChars * 3 ? out : null
}

/**
 * What the page itself shows: meta tags, and with `lines` (the page read by pageLines) the ingredients and steps under
 * their headings and labelled times and yields.
 */
export function extractHeuristics (page: Page, context: PageContext, lines: Line[] | null): RawRecipe {
  const out = pageMeta(page, context)
  if (lines == null) return out
  const listed = findSection(lines, 'ingredients')
  const steps = findSection(lines, 'instructions', listed?.end)
  // With steps under their heading the page is a recipe: a list of quantities without measures is its ingredients.
  const ingredients = betterOf(listed, lines, steps != null)
  const instructions = steps ??
    (ingredients == null ? null : (listAfter(lines, ingredients) ?? proseAfter(lines, ingredients) ?? orderedListAnywhere(lines, ingredients)))
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
