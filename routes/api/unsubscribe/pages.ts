// The HTML pages of /api/unsubscribe (not a route file: index.ts is the family's entry, so autoload skips this one).
// Every interpolated string is escaped by the `page` tag; only markup written here goes in as it is.
import { escapeUTF8 } from 'entities'
import { UNSUBSCRIBE_SCOPES, type UnsubscribeScope } from '../../../schemas/unsubscribe.js'

class Markup {
  constructor (readonly value: string) {}
}
type Value = string | Markup | Value[]

const value = (v: Value): string => v instanceof Markup ? v.value : Array.isArray(v) ? v.map(value).join('') : escapeUTF8(v)
const html = (strings: TemplateStringsArray, ...values: Value[]) =>
  new Markup(strings.reduce((out, part, i) => out + part + (i < values.length ? value(values[i]) : ''), ''))

/** The headers of every reply of the family: the URL holds a token, and the pages load nothing from anywhere. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex'
}

const SCOPE_LABELS: Record<UnsubscribeScope, string> = {
  all: 'All notification emails (likes, comments and the digest)',
  likes: 'Only emails about likes',
  comments: 'Only emails about comments',
  digest: 'Only the digest email'
}

const DONE: Record<UnsubscribeScope, string> = {
  all: 'no longer gets notification emails',
  likes: 'no longer gets emails about likes',
  comments: 'no longer gets emails about comments',
  digest: 'no longer gets the digest email'
}

const STYLE = 'body{margin:0;background:#f5f5f4;color:#1c1917;font:16px/1.5 Arial,Helvetica,sans-serif}' +
  'main{max-width:520px;margin:40px auto;padding:24px;background:#fff;border-radius:8px}' +
  'h1{font-size:22px;margin:0 0 16px}label{display:block;margin:6px 0}fieldset{border:0;padding:0;margin:16px 0}' +
  'button{padding:10px 18px;border:0;border-radius:6px;background:#b45309;color:#fff;font-weight:bold;cursor:pointer}' +
  '.email{font-weight:bold;word-break:break-all}'

function layout (title: string, body: Markup): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value
}

/** Asks which emails to stop for `email`; nothing changes until the form is posted (link scanners only GET). */
export function confirmPage (email: string, token: string, scope: UnsubscribeScope): string {
  const choices = UNSUBSCRIBE_SCOPES.map(option => html`<label><input type="radio" name="scope" value="${option}"${
    option === scope ? new Markup(' checked') : ''}> ${SCOPE_LABELS[option]}</label>
`)
  return layout('Unsubscribe', html`<p>Stop emails to <span class="email">${email}</span>:</p>
<form method="post" action="/api/unsubscribe">
<input type="hidden" name="token" value="${token}">
<fieldset>
${choices}</fieldset>
<button type="submit">Unsubscribe</button>
</form>`)
}

export function donePage (email: string, scope: UnsubscribeScope): string {
  return layout('You are unsubscribed', html`<p><span class="email">${email}</span> ${DONE[scope]}.</p>
<p>You can turn emails back on at any time in your account's notification settings.</p>`)
}

export function invalidPage (): string {
  return layout('Link invalid or expired', html`<p>This unsubscribe link is invalid or has expired.</p>
<p>Use the link in a more recent email, or change your notification settings in your account.</p>`)
}
