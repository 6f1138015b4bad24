// Building the page from data without ever parsing it as markup: elements are created one by one, text is set as
// text (text nodes, textContent), attributes by name from this code only. There is no innerHTML anywhere in the app.
/* global location, Node, FileReader */
const PROPS = new Set(['value', 'checked', 'disabled', 'hidden', 'selected', 'required', 'multiple', 'open', 'indeterminate'])

/** h('a', { href: '/x', class: 'y', onclick: fn }, 'text', child...): an element; strings become text nodes. */
export function h (tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (name === 'class') el.className = value
    else if (name === 'dataset') Object.assign(el.dataset, value)
    else if (PROPS.has(name)) el[name] = value
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  el.append(...children.flat(Infinity).filter(child => child != null && child !== false)
    .map(child => child instanceof Node ? child : String(child)))
  return el
}

let counter = 0
/** A fresh element id, for label/for and aria references. */
export const uid = prefix => `${prefix}-${++counter}`

/** A label and its control, tied by id: field('Title', h('input', { name: 'title' })). */
export function field (label, control, hint) {
  if (!control.id) control.id = uid('f')
  const parts = [h('label', { for: control.id }, label), control]
  if (hint != null) {
    const hintId = uid('hint')
    control.setAttribute('aria-describedby', hintId)
    parts.push(h('small', { id: hintId, class: 'hint' }, hint))
  }
  return h('div', { class: 'field' }, parts)
}

/** A checkbox with its label after it. */
export function checkbox (label, attrs) {
  const input = h('input', { type: 'checkbox', id: uid('c'), ...attrs })
  return h('div', { class: 'check' }, input, h('label', { for: input.id }, label))
}

/** A <select> from [value, label] pairs, `selected` chosen. */
export function select (attrs, options, selected) {
  return h('select', attrs, options.map(([value, label]) => h('option', { value, selected: String(value) === String(selected ?? '') }, label)))
}

/**
 * Where an image from the API may be shown under the page's CSP (img-src 'self' data:): stored uploads go through the
 * proxy's own /uploads, so an absolute upload URL is shown by its path on this origin. Anything else is not shown.
 */
export function imageSrc (url) {
  if (typeof url !== 'string' || url === '') return null
  try {
    const parsed = new URL(url, location.origin)
    if (parsed.origin === location.origin) return parsed.pathname + parsed.search
    if (parsed.protocol.startsWith('http') && parsed.pathname.startsWith('/uploads/')) return parsed.pathname
  } catch { }
  return null
}

/** The recipe's picture, or a neutral placeholder block of the same size. */
export function picture (url, alt, className = 'thumb') {
  const src = imageSrc(url)
  return src == null ? h('div', { class: `${className} placeholder`, 'aria-hidden': 'true' }) : h('img', { class: className, src, alt, loading: 'lazy' })
}

export function minutes (value) {
  if (value == null || value <= 0) return null
  return value >= 60 ? `${Math.floor(value / 60)} h${value % 60 > 0 ? ` ${value % 60} min` : ''}` : `${value} min`
}

export const shortDate = iso => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/** Reads a file as a data: URL (allowed by the CSP's img-src, unlike blob:). */
export function dataUrl (file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })
}
