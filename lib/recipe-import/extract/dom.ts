// DOM helpers over cheerio's node tree. Every walk is iterative (no recursion, so a deeply nested hostile page cannot
// overflow the stack) and bounded in the text it collects.
import { load, type CheerioAPI, type contains } from 'cheerio'
import { boundNesting } from './guard.js'

export type AnyNode = Parameters<typeof contains>[1]
export type Element = Extract<AnyNode, { attribs: Record<string, string> }>

export const isElement = (node: AnyNode): node is Element => 'attribs' in node && 'name' in node
const isText = (node: AnyNode): node is Extract<AnyNode, { data: string }> => (node.type as string) === 'text'

/**
 * The page as a document, its nesting bounded first (guard.ts). htmlparser2 in HTML mode (`xml.xmlMode: false`):
 * five times faster than parse5 on real pages, and what extraction needs of the tree (scripts as raw text, implied
 * ends of p/li, entities decoded, <noscript> content as markup) it does the same.
 */
function parseDocument (html: string): ParentNode {
  const $: CheerioAPI = load(boundNesting(html), { xml: { xmlMode: false, decodeEntities: true } })
  return $.root()[0]
}

export type ParentNode = Extract<AnyNode, { children: AnyNode[] }>

/**
 * The parsed page with the elements extraction looks up, indexed in one walk. (cheerio's selectors are not used:
 * on a document with many top-level nodes each query is quadratic.)
 */
export interface Page {
  root: ParentNode
  /** <body>, or the document when there is none. */
  body: ParentNode
  lang: string | null
  title: string | null
  /** The texts of the first <h1> elements that have text (a theme's site-name <h1> may come first). */
  h1s: string[]
  /** The <h1> elements whose texts are `h1s`. */
  h1Elements: Element[]
  metas: Element[]
  links: Element[]
  baseHref: string | null
  scripts: Element[]
  /** <img> elements, and whether each sits in an article, main or a recipe/content container. */
  images: Array<{ img: Element, inContent: boolean }>
  /** Elements with a style attribute holding url(...). */
  styled: Element[]
  /** Elements with itemscope and itemtype. */
  itemscopes: Element[]
  /** Whether some element has itemprop recipeIngredient or ingredients. */
  ingredientProps: boolean
}

const MAX_INDEXED = 50_000
const MAX_H1 = 5
const CONTENT_CLASS = /recipe|content/i

export function parsePage (html: string): Page {
  const root = parseDocument(html)
  const page: Page = {
    root,
    body: root,
    lang: null,
    title: null,
    h1s: [],
    h1Elements: [],
    metas: [],
    links: [],
    baseHref: null,
    scripts: [],
    images: [],
    styled: [],
    itemscopes: [],
    ingredientProps: false
  }
  let bodyFound = false
  let content = 0
  const stack: Array<AnyNode | { exit: boolean }> = [root]
  while (stack.length > 0) {
    const item = stack.pop()!
    if ('exit' in item) {
      if (item.exit) content--
      continue
    }
    if (!('children' in item)) continue
    let isContent = false
    if (isElement(item)) {
      const name = item.name.toLowerCase()
      const a = item.attribs
      if (name === 'script') {
        if (page.scripts.length < MAX_INDEXED) page.scripts.push(item)
        continue
      }
      if (name === 'meta') {
        if (page.metas.length < MAX_INDEXED) page.metas.push(item)
      } else if (name === 'link') {
        if (page.links.length < MAX_INDEXED) page.links.push(item)
      } else if (name === 'body' && !bodyFound) {
        page.body = item
        bodyFound = true
      } else if (name === 'html' && page.lang == null && a.lang != null && a.lang.trim() !== '') {
        page.lang = a.lang
      } else if (name === 'title' && page.title == null) {
        page.title = textOf(item, false, 2000)
      } else if (name === 'h1' && page.h1s.length < MAX_H1) {
        const text = textOf(item, false, 2000)
        if (text.trim() !== '') {
          page.h1s.push(text)
          page.h1Elements.push(item)
        }
      } else if (name === 'base' && page.baseHref == null && a.href != null) {
        page.baseHref = a.href
      } else if (name === 'img' && page.images.length < 1000) {
        page.images.push({ img: item, inContent: content > 0 })
      }
      if (a.style != null && a.style.includes('url(') && page.styled.length < 1000) page.styled.push(item)
      if (a.itemscope != null && a.itemtype != null && page.itemscopes.length < MAX_INDEXED) page.itemscopes.push(item)
      if (a.itemprop != null && /(?:^|\s)(?:\S*[/:#])?(?:recipeIngredient|ingredients)(?:\s|$)/.test(a.itemprop.slice(0, 500))) {
        page.ingredientProps = true
      }
      isContent = name === 'article' || name === 'main' || CONTENT_CLASS.test(a.class ?? '')
      if (SKIPPED.has(name) && name !== 'noscript' && name !== 'head') continue
    }
    if (isContent) {
      content++
      stack.push({ exit: true })
    }
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i])
  }
  return page
}

/** The text of a script or style element, as written. */
export function rawText (el: Element): string {
  return el.children.map(child => (child.type as string) === 'text' && 'data' in child ? child.data : '').join('')
}

export function attr (el: Element, name: string): string | null {
  const value = el.attribs[name]
  return value == null || value.trim() === '' ? null : value.trim()
}

export function classAndId (el: Element): string {
  return `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.toLowerCase()
}

/** Elements whose contents are never recipe text. */
export const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'select', 'option',
  'button', 'input', 'textarea', 'canvas', 'video', 'audio', 'object', 'head', 'math'])

const BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li',
  'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul', 'summary', 'tbody', 'thead'])

/**
 * The text of a node. With `lines`, block elements and <br> end lines ("\n"); otherwise they become spaces.
 * Collection stops after `max` characters.
 */
export function textOf (root: AnyNode, lines = false, max = 100_000): string {
  const out: string[] = []
  let length = 0
  const stack: Array<AnyNode | string> = [root]
  while (stack.length > 0 && length < max) {
    const item = stack.pop()!
    if (typeof item === 'string') {
      out.push(item)
      length += 1
      continue
    }
    if (isText(item)) {
      out.push(item.data)
      length += item.data.length
      continue
    }
    if (isElement(item)) {
      const name = item.name.toLowerCase()
      if (SKIPPED.has(name)) continue
      if (name === 'br') {
        out.push(lines ? '\n' : ' ')
        continue
      }
      if (name === 'td' || name === 'th' || name === 'img') {
        out.push(' ')
      }
      const separator = BLOCKS.has(name) ? (lines ? '\n' : ' ') : null
      if (separator != null) {
        out.push(separator)
        stack.push(separator)
      }
    } else if (!('children' in item)) {
      continue
    }
    const children = 'children' in item ? item.children : []
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
  return out.join('')
}
