// What the page's head says: meta tags, the canonical link, the image, and the title (the <h1> the <title> or
// og:title names, without the site's name), description, author and language.
import { absoluteUrl, cleanText, LIMITS, truncate } from './clean.js'
import { classAndId, type Page } from './dom.js'
import type { PageContext, RawRecipe } from './types.js'

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

export const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
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
