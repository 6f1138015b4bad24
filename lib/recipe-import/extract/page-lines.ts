// The page read once as a sequence of lines (page heuristics, heuristics.ts): each line remembers its block (heading
// level, list item, bold, link text) and the recipe-looking container it sits in (class names such as "ingredients"
// or "instructions", used by WPRM, Tasty, Mediavine Create, EasyRecipe and most themes). Page furniture (menus,
// widgets, comments, promotions), hidden blocks and inactive tab panes are left out; bounded in elements, lines and
// line length.
import { truncate } from './clean.js'
import { classAndId, isElement, SKIPPED, type AnyNode, type Element, type Page } from './dom.js'

export type Kind = 'ingredients' | 'instructions'

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
  const groups = new Map<string, { members: Element[], inactive: Element[] }>()
  for (const child of el.children) {
    if (!isElement(child) || child.attribs.class == null || child.attribs.class.length > 300) continue
    const tokens = child.attribs.class.toLowerCase().split(/\s+/).filter(t => t !== '')
    const active = tokens.some(t => ACTIVE.test(t))
    const key = `${child.name} ${tokens.filter(t => !ACTIVE.test(t) && !SHOWN.test(t)).sort().join(' ')}`
    let group = groups.get(key)
    if (group == null) {
      if (groups.size >= 50) continue
      group = { members: [], inactive: [] }
      groups.set(key, group)
    }
    group.members.push(child)
    if (!active) group.inactive.push(child)
  }
  let out: Set<AnyNode> | null = null
  for (const { members, inactive } of groups.values()) {
    if (members.length - inactive.length !== 1 || members.length < 2) continue
    out ??= new Set()
    for (const member of inactive) out.add(member)
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
