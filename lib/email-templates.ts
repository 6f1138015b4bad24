// Every email the service sends, as a subject, a plain text part and an HTML part. Pure: callers pass what to say.
// User text (names, titles, comments, messages) is escaped at output in the HTML part by the `html` tag below, which
// escapes every interpolated string; only `Html` values built by this module are inserted as they are. Links are
// http(s) only. Plain text parts stay plain (no escaping), but one-line fields lose CR/LF so that a subject can never
// carry a header.

export interface RenderedEmail { subject: string, text: string, html: string }
export interface EmailLayout { appName: string, appUrl: string, unsubscribeUrl?: string }

const SUBJECT_MAX = 150
const COMMENT_MAX = 500
const DIGEST_MAX_ITEMS = 50

/** Markup this module wrote; anything else interpolated into `html` is text and gets escaped. */
class Html {
  constructor (readonly value: string) {}
  toString (): string { return this.value }
}

type HtmlValue = string | number | Html | HtmlValue[]

// Numeric &#39; rather than &apos;: older email clients (HTML 4 engines) do not know &apos;.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, c => ESCAPES[c])

function htmlValue (value: HtmlValue): string {
  if (value instanceof Html) return value.value
  if (Array.isArray(value)) return value.map(htmlValue).join('')
  return escapeHtml(String(value))
}

function html (strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  return new Html(strings.reduce((out, part, i) => out + part + (i < values.length ? htmlValue(values[i]) : ''), ''))
}

/** One line: line breaks become spaces and other control characters go (tabs stay). */
function oneLine (text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\r\n\v\f\u0085\u2028\u2029]+/g, ' ').replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
}

/** At most `max` characters (code points, so no emoji is cut in half), with an ellipsis when cut. */
function cut (text: string, max: number): string {
  const chars = Array.from(text)
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…'
}

const subjectLine = (text: string) => cut(oneLine(text).replace(/\s+/g, ' ').trim(), SUBJECT_MAX)

/** The URL when it is http(s), else `fallback`: a `javascript:` or `data:` link never reaches an href. */
function safeUrl (url: string, fallback: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href
  } catch {
    // Not a URL at all: same as a URL of another scheme.
  }
  return fallback
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** `2024-05-01 14:03 UTC`: the recipient's time zone is not known here. */
const formatDate = (date: Date) => Number.isNaN(date.getTime()) ? '' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`

const STYLE = {
  body: 'margin:0;padding:0;background:#f5f5f4;color:#1c1917;font-family:Arial,Helvetica,sans-serif;',
  card: 'max-width:600px;background:#ffffff;border-radius:8px;',
  header: 'padding:20px 24px;border-bottom:1px solid #e7e5e4;font-size:18px;font-weight:bold;',
  brand: 'color:#b45309;text-decoration:none;',
  content: 'padding:24px;font-size:15px;line-height:1.5;',
  footer: 'padding:16px 24px;border-top:1px solid #e7e5e4;font-size:12px;line-height:1.5;color:#78716c;',
  footerLink: 'color:#78716c;',
  p: 'margin:0 0 16px 0;',
  button: 'display:inline-block;padding:10px 18px;background:#b45309;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;',
  quote: 'margin:0 0 16px 0;padding:8px 12px;border-left:3px solid #e7e5e4;color:#44403c;white-space:pre-wrap;',
  code: 'font-family:Consolas,Menlo,monospace;font-size:18px;letter-spacing:2px;background:#f5f5f4;padding:4px 8px;border-radius:4px;',
  list: 'margin:0 0 16px 0;padding:0 0 0 20px;',
  item: 'margin:0 0 8px 0;',
  muted: 'color:#78716c;font-size:13px;',
  link: 'color:#b45309;'
} as const

/** What a template says, in both parts; `render` adds the layout. */
interface Content { subject: string, text: string[], html: Html[] }

class Renderer {
  readonly appName: string
  readonly appUrl: string
  readonly unsubscribeUrl?: string

  constructor (layout: EmailLayout) {
    this.appName = oneLine(layout.appName)
    this.appUrl = safeUrl(layout.appUrl, '#')
    this.unsubscribeUrl = layout.unsubscribeUrl == null ? undefined : safeUrl(layout.unsubscribeUrl, this.appUrl)
  }

  url (url: string): string { return safeUrl(url, this.appUrl) }

  p (...parts: HtmlValue[]): Html { return html`<p style="${STYLE.p}">${parts}</p>` }
  button (url: string, label: string): Html {
    return html`<p style="${STYLE.p}"><a href="${this.url(url)}" style="${STYLE.button}">${label}</a></p>`
  }

  link (url: string, label: string): Html { return html`<a href="${this.url(url)}" style="${STYLE.link}">${label}</a>` }
  strong (text: string): Html { return html`<strong>${text}</strong>` }
  quote (text: string): Html { return html`<div style="${STYLE.quote}">${text}</div>` }

  render (content: Content): RenderedEmail {
    const subject = subjectLine(content.subject)
    const footerText = [`You receive this email because you have an account at ${this.appName}: ${this.appUrl}`]
    const footerHtml: Html[] = [html`You receive this email because you have an account at <a href="${this.appUrl}" style="${STYLE.footerLink}">${this.appName}</a>.`]
    if (this.unsubscribeUrl != null) {
      footerText.push(`Unsubscribe: ${this.unsubscribeUrl}`)
      footerHtml.push(html`<br><a href="${this.unsubscribeUrl}" style="${STYLE.footerLink}">Unsubscribe</a> from these emails.`)
    }
    const text = [...content.text, '', '--', ...footerText].join('\n') + '\n'
    const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${subject}</title>
</head>
<body style="${STYLE.body}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f5f5f4;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="${STYLE.card}">
<tr><td style="${STYLE.header}"><a href="${this.appUrl}" style="${STYLE.brand}">${this.appName}</a></td></tr>
<tr><td style="${STYLE.content}">
${content.html.map(block => html`${block}\n`)}</td></tr>
<tr><td style="${STYLE.footer}">${footerHtml}</td></tr>
</table>
</td></tr></table>
</body>
</html>
`
    return { subject, text, html: page.value }
  }
}

export function welcomeEmail (layout: EmailLayout, v: { username: string }): RenderedEmail {
  const r = new Renderer(layout)
  const username = oneLine(v.username)
  return r.render({
    subject: `Welcome to ${r.appName}, ${username}!`,
    text: [
      `Hi ${username},`,
      '',
      `Welcome to ${r.appName}! Your account is ready: share your recipes, follow the cooks you like and plan your meals.`,
      '',
      `Get started: ${r.appUrl}`
    ],
    html: [
      r.p(`Hi ${username},`),
      r.p(`Welcome to ${r.appName}! Your account is ready: share your recipes, follow the cooks you like and plan your meals.`),
      r.button(r.appUrl, 'Get started')
    ]
  })
}

export function passwordResetEmail (layout: EmailLayout, v: { username: string, link: string, expiresInMinutes: number }): RenderedEmail {
  const r = new Renderer(layout)
  const username = oneLine(v.username)
  const link = r.url(v.link)
  const expires = `This link expires in ${plural(Math.max(0, Math.round(v.expiresInMinutes)), 'minute')}.`
  const ignore = 'If you did not ask for this, ignore this email: your password stays as it is.'
  return r.render({
    subject: `Reset your ${r.appName} password`,
    text: [
      `Hi ${username},`,
      '',
      `Someone (hopefully you) asked to reset the password of your ${r.appName} account. Open this link to choose a new one:`,
      '',
      link,
      '',
      expires,
      ignore
    ],
    html: [
      r.p(`Hi ${username},`),
      r.p(`Someone (hopefully you) asked to reset the password of your ${r.appName} account. Choose a new one here:`),
      r.button(link, 'Reset your password'),
      r.p(expires, html`<br>`, ignore),
      html`<p style="${STYLE.p}${STYLE.muted}">If the button does not work, copy this address into your browser:<br>${link}</p>`
    ]
  })
}

export function commentEmail (layout: EmailLayout, v: { actor: string, recipeTitle: string, recipeUrl: string, comment: string, isReply: boolean }): RenderedEmail {
  const r = new Renderer(layout)
  const actor = oneLine(v.actor)
  const title = oneLine(v.recipeTitle)
  const comment = cut(v.comment.replace(/\r\n?/g, '\n'), COMMENT_MAX)
  const what = v.isReply ? `replied to your comment on "${title}"` : `commented on your recipe "${title}"`
  return r.render({
    subject: `${actor} ${what}`,
    text: [
      `${actor} ${what}:`,
      '',
      ...comment.split('\n').map(line => `> ${line}`),
      '',
      `Read and reply: ${r.url(v.recipeUrl)}`
    ],
    html: [
      r.p(r.strong(actor), ` ${what}:`),
      r.quote(comment),
      r.button(v.recipeUrl, 'Read and reply')
    ]
  })
}

export function likeEmail (layout: EmailLayout, v: { actor: string, recipeTitle: string, recipeUrl: string }): RenderedEmail {
  const r = new Renderer(layout)
  const actor = oneLine(v.actor)
  const title = oneLine(v.recipeTitle)
  return r.render({
    subject: `${actor} liked your recipe "${title}"`,
    text: [`${actor} liked your recipe "${title}".`, '', `See your recipe: ${r.url(v.recipeUrl)}`],
    html: [r.p(r.strong(actor), ' liked your recipe ', r.link(v.recipeUrl, `"${title}"`), '.'), r.button(v.recipeUrl, 'See your recipe')]
  })
}

export function followerEmail (layout: EmailLayout, v: { actor: string, profileUrl: string }): RenderedEmail {
  const r = new Renderer(layout)
  const actor = oneLine(v.actor)
  return r.render({
    subject: `${actor} started following you`,
    text: [`${actor} started following you on ${r.appName}.`, '', `See their profile: ${r.url(v.profileUrl)}`],
    html: [r.p(r.strong(actor), ` started following you on ${r.appName}.`), r.button(v.profileUrl, 'See their profile')]
  })
}

export function newRecipeEmail (layout: EmailLayout, v: { actor: string, recipeTitle: string, recipeUrl: string }): RenderedEmail {
  const r = new Renderer(layout)
  const actor = oneLine(v.actor)
  const title = oneLine(v.recipeTitle)
  return r.render({
    subject: `${actor} published a new recipe: "${title}"`,
    text: [`${actor} published a new recipe: "${title}".`, '', `Read it: ${r.url(v.recipeUrl)}`],
    html: [r.p(r.strong(actor), ' published a new recipe: ', r.link(v.recipeUrl, `"${title}"`), '.'), r.button(v.recipeUrl, 'Read the recipe')]
  })
}

/** Family events and shared meal plans: the message says what happened. */
export function familyEmail (layout: EmailLayout, v: { message: string, url: string }): RenderedEmail {
  const r = new Renderer(layout)
  return r.render({
    subject: v.message,
    text: [v.message, '', `Open ${r.appName}: ${r.url(v.url)}`],
    html: [html`<p style="${STYLE.p}white-space:pre-wrap;">${v.message}</p>`, r.button(v.url, `Open ${r.appName}`)]
  })
}

export function familyInviteEmail (layout: EmailLayout, v: { inviter: string, familyName: string, inviteCode: string, joinUrl: string }): RenderedEmail {
  const r = new Renderer(layout)
  const inviter = oneLine(v.inviter)
  const family = oneLine(v.familyName)
  const code = oneLine(v.inviteCode)
  return r.render({
    subject: `${inviter} invited you to join the family "${family}" on ${r.appName}`,
    text: [
      `${inviter} invited you to join the family "${family}" on ${r.appName}.`,
      '',
      `Join: ${r.url(v.joinUrl)}`,
      `Or enter the invite code: ${code}`
    ],
    html: [
      r.p(r.strong(inviter), ' invited you to join the family ', r.strong(`"${family}"`), ` on ${r.appName}.`),
      r.button(v.joinUrl, 'Join the family'),
      r.p('Or enter the invite code: ', html`<span style="${STYLE.code}">${code}</span>`)
    ]
  })
}

/** Lists the 50 newest items; the rest (and whatever `total` counts beyond the items given) is "and N more". */
export function digestEmail (layout: EmailLayout, v: {
  username: string
  frequency: 'daily' | 'weekly'
  items: Array<{ message: string, createdAt: Date, url: string }>
  total: number
  notificationsUrl: string
}): RenderedEmail {
  const r = new Renderer(layout)
  const username = oneLine(v.username)
  const listed = [...v.items].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, DIGEST_MAX_ITEMS)
  const total = Math.max(v.total, v.items.length)
  const more = total - listed.length
  const andMore = more > 0 ? `and ${more} more` : null
  const period = v.frequency === 'daily' ? 'today' : 'this week'
  return r.render({
    subject: `Your ${v.frequency} ${r.appName} digest: ${plural(total, 'new notification')}`,
    text: [
      `Hi ${username},`,
      '',
      `Here is what happened on ${r.appName} ${period}:`,
      '',
      ...listed.map(item => `- ${oneLine(item.message)} (${formatDate(item.createdAt)})\n  ${r.url(item.url)}`),
      ...(andMore == null ? [] : [`- ${andMore}`]),
      '',
      `All your notifications: ${r.url(v.notificationsUrl)}`
    ],
    html: [
      r.p(`Hi ${username},`),
      r.p(`Here is what happened on ${r.appName} ${period}:`),
      html`<ul style="${STYLE.list}">${listed.map(item => html`<li style="${STYLE.item}">${r.link(item.url, oneLine(item.message))} <span style="${STYLE.muted}">${formatDate(item.createdAt)}</span></li>`)}${
        andMore == null ? '' : html`<li style="${STYLE.item}">${andMore}</li>`}</ul>`,
      r.button(v.notificationsUrl, 'See all notifications')
    ]
  })
}

export function dataDeletionEmail (layout: EmailLayout, v: { username: string, deleteType: 'account' | 'data', scheduledFor: Date, statusUrl: string, cancelHint: string }): RenderedEmail {
  const r = new Renderer(layout)
  const username = oneLine(v.username)
  const what = v.deleteType === 'account' ? `your ${r.appName} account and all its data` : `your ${r.appName} data (your account stays)`
  const when = formatDate(v.scheduledFor)
  return r.render({
    subject: v.deleteType === 'account' ? `Your ${r.appName} account is scheduled for deletion` : `Your ${r.appName} data is scheduled for deletion`,
    text: [
      `Hi ${username},`,
      '',
      `As you asked, ${what} will be deleted on ${when}.`,
      v.cancelHint,
      '',
      `Status of your request: ${r.url(v.statusUrl)}`
    ],
    html: [
      r.p(`Hi ${username},`),
      r.p(`As you asked, ${what} will be deleted on `, r.strong(when), '.'),
      html`<p style="${STYLE.p}white-space:pre-wrap;">${v.cancelHint}</p>`,
      r.button(v.statusUrl, 'See the status of your request')
    ]
  })
}
