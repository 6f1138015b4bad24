import { parse, type DefaultTreeAdapterMap } from 'parse5'
import t, { type Test } from 'tap'
import {
  commentEmail, dataDeletionEmail, digestEmail, type EmailLayout, familyEmail, familyInviteEmail, followerEmail, likeEmail,
  newRecipeEmail, passwordResetEmail, type RenderedEmail, welcomeEmail
} from '../../lib/email-templates.js'

type Node = DefaultTreeAdapterMap['node']
type Element = DefaultTreeAdapterMap['element']

const LAYOUT: EmailLayout = { appName: 'Recipes', appUrl: 'https://recipes.example' }
const UNSUBSCRIBE = 'https://api.recipes.example/api/unsubscribe?token=abc.def.ghi'

const SCRIPT = '<script>alert(1)</script>'
const BREAKOUT = '"><img src=x onerror=alert(1)>'
const EVIL_URL = 'javascript:alert(1)'

function elements (node: Node, found: Element[] = []): Element[] {
  if ('tagName' in node) found.push(node)
  const children = 'content' in node ? (node as { content: DefaultTreeAdapterMap['documentFragment'] }).content.childNodes : []
  for (const child of [...('childNodes' in node ? node.childNodes : []), ...children]) elements(child, found)
  return found
}

/** The parsed HTML part's elements, with the structural checks every email must pass. */
function checkHtml (t: Test, email: RenderedEmail, name: string): Element[] {
  const all = elements(parse(email.html))
  t.same(all.filter(e => e.tagName === 'script').length, 0, `${name}: no <script>`)
  t.same(all.flatMap(e => e.attrs.filter(a => /^on/i.test(a.name)).map(a => `${e.tagName} ${a.name}`)), [], `${name}: no on* attributes`)
  t.same(all.filter(e => ['img', 'iframe', 'object', 'embed', 'link', 'base', 'form'].includes(e.tagName)).map(e => e.tagName), [],
    `${name}: no elements that load or submit anything`)
  const hrefs = all.flatMap(e => e.attrs.filter(a => a.name === 'href' || a.name === 'src').map(a => a.value))
  t.ok(hrefs.length > 0, `${name}: has links`)
  for (const href of hrefs) t.match(href, /^https?:\/\//, `${name}: http(s) link ${href}`)
  return all
}

const textOf = (node: Node): string => ('value' in node && node.nodeName === '#text'
  ? (node as { value: string }).value
  : ('childNodes' in node ? node.childNodes.map(textOf).join('') : ''))

// Every template, with hostile text in each user field.
const HOSTILE: Record<string, (layout: EmailLayout, text: string, url: string) => RenderedEmail> = {
  welcome: (l, s) => welcomeEmail(l, { username: s }),
  passwordReset: (l, s, url) => passwordResetEmail(l, { username: s, link: url, expiresInMinutes: 60 }),
  comment: (l, s, url) => commentEmail(l, { actor: s, recipeTitle: s, recipeUrl: url, comment: s, isReply: false }),
  reply: (l, s, url) => commentEmail(l, { actor: s, recipeTitle: s, recipeUrl: url, comment: s, isReply: true }),
  like: (l, s, url) => likeEmail(l, { actor: s, recipeTitle: s, recipeUrl: url }),
  follower: (l, s, url) => followerEmail(l, { actor: s, profileUrl: url }),
  newRecipe: (l, s, url) => newRecipeEmail(l, { actor: s, recipeTitle: s, recipeUrl: url }),
  family: (l, s, url) => familyEmail(l, { message: s, url }),
  familyInvite: (l, s, url) => familyInviteEmail(l, { inviter: s, familyName: s, inviteCode: 'AB12CD34', joinUrl: url }),
  digest: (l, s, url) => digestEmail(l, { username: s, frequency: 'daily', items: [{ message: s, createdAt: new Date(), url }], total: 1, notificationsUrl: url }),
  dataDeletion: (l, s, url) => dataDeletionEmail(l, { username: s, deleteType: 'account', scheduledFor: new Date('2030-01-02T03:04:00Z'), statusUrl: url, cancelHint: s })
}

t.test('every template renders a subject, a text part and an HTML document', async t => {
  for (const [name, render] of Object.entries(HOSTILE)) {
    const email = render(LAYOUT, 'Alice', 'https://recipes.example/r/1')
    t.ok(email.subject.length > 0 && email.subject.length <= 150, `${name}: subject "${email.subject}"`)
    t.notMatch(email.subject, /[\r\n]/, `${name}: one line`)
    t.match(email.text, /\S/, `${name}: text`)
    t.match(email.html, /^<!DOCTYPE html>/, `${name}: HTML document`)
    const all = checkHtml(t, email, name)
    t.ok(all.some(e => e.tagName === 'title'), `${name}: has a title`)
    t.ok(email.text.includes('https://recipes.example'), `${name}: text links the app`)
  }
})

t.test('hostile text is escaped in HTML and neutralised in subjects', async t => {
  for (const [name, render] of Object.entries(HOSTILE)) {
    for (const hostile of [SCRIPT, BREAKOUT]) {
      const email = render(LAYOUT, hostile, EVIL_URL)
      const all = checkHtml(t, email, `${name} ${hostile}`)
      t.notOk(email.html.includes(hostile), `${name}: raw ${hostile} absent from HTML`)
      t.ok(email.html.includes(hostile.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')),
        `${name}: ${hostile} present, escaped`)
      // What a reader sees is the text itself: escaping keeps it, it does not strip it.
      t.ok(textOf(all.find(e => e.tagName === 'body')!).includes(hostile), `${name}: shown as text`)
      t.notOk(email.html.includes('javascript:'), `${name}: no javascript: URL`)
      t.notOk(email.text.includes('javascript:'), `${name}: no javascript: URL in text either`)
    }
  }
})

t.test('URLs: http(s) only, attribute-escaped', async t => {
  for (const url of [EVIL_URL, ' JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'not a url', '//evil.example/x']) {
    const email = likeEmail(LAYOUT, { actor: 'Bob', recipeTitle: 'Soup', recipeUrl: url })
    const hrefs = checkHtml(t, email, url).flatMap(e => e.attrs.filter(a => a.name === 'href').map(a => a.value))
    t.same([...new Set(hrefs)], ['https://recipes.example/'], `${url}: replaced by the app URL`)
    t.ok(email.text.includes('See your recipe: https://recipes.example/'), `${url}: text has the app URL`)
  }
  const quoted = likeEmail(LAYOUT, { actor: 'Bob', recipeTitle: 'Soup', recipeUrl: 'https://recipes.example/r?q="><script>x</script>&a=1' })
  const hrefs = checkHtml(t, quoted, 'quoted').flatMap(e => e.attrs.filter(a => a.name === 'href').map(a => a.value))
  t.ok(hrefs.includes('https://recipes.example/r?q=%22%3E%3Cscript%3Ex%3C/script%3E&a=1'), `stays one attribute value: ${hrefs.join(' ')}`)
  t.ok(quoted.html.includes('&amp;a=1'), 'ampersands in URLs are escaped in the attribute')
  t.equal(welcomeEmail({ ...LAYOUT, appUrl: EVIL_URL }, { username: 'a' }).html.includes('javascript:'), false, 'even a bad app URL')
})

t.test('CR/LF never reaches a subject', async t => {
  const injected = 'Eve\r\nBcc: victim@example.com\r\n\r\n<b>hi</b>'
  for (const [name, render] of Object.entries(HOSTILE)) {
    const email = render(LAYOUT, injected, 'https://recipes.example/x')
    t.notMatch(email.subject, /[\r\n]/, `${name}: ${JSON.stringify(email.subject)}`)
  }
  const welcome = welcomeEmail(LAYOUT, { username: injected })
  t.equal(welcome.subject, 'Welcome to Recipes, Eve Bcc: victim@example.com <b>hi</b>!')
  t.ok(welcome.text.startsWith('Hi Eve Bcc: victim@example.com <b>hi</b>,\n'), 'one-line fields stay one line in the text too')
  t.equal(familyEmail({ ...LAYOUT, appName: 'Re\ncipes' }, { message: 'x', url: 'https://a.example' }).html.includes('Re\ncipes'), false, 'the app name too')
})

t.test('plain text stays plain', async t => {
  const email = commentEmail(LAYOUT, {
    actor: 'Tom & Jerry',
    recipeTitle: 'salt & pepper',
    recipeUrl: 'https://recipes.example/r/1',
    comment: 'Use salt & pepper, 2 < 3 > 1 and "quotes" \'here\'\nsecond line',
    isReply: false
  })
  t.ok(email.text.includes('salt & pepper'), 'text has salt & pepper byte for byte')
  t.ok(email.text.includes('> Use salt & pepper, 2 < 3 > 1 and "quotes" \'here\'\n> second line'), 'the comment as written, quoted')
  t.equal(email.subject, 'Tom & Jerry commented on your recipe "salt & pepper"', 'subject unescaped')
  t.notOk(email.text.includes('&amp;'), 'no entities in text')
  t.ok(email.html.includes('salt &amp; pepper'), 'escaped in HTML')
  t.ok(email.html.includes('&quot;quotes&quot; &#39;here&#39;'))
  t.equal(commentEmail(LAYOUT, { actor: 'a', recipeTitle: 'b', recipeUrl: 'https://x.example', comment: 'c', isReply: true }).subject,
    'a replied to your comment on "b"')
})

t.test('long text: comments cut at 500 characters, subjects at 150', async t => {
  const email = commentEmail(LAYOUT, { actor: 'a', recipeTitle: 'T'.repeat(300), recipeUrl: 'https://x.example', comment: '🍅'.repeat(600), isReply: false })
  t.ok(email.text.includes(`> ${'🍅'.repeat(499)}…\n`), 'comment cut to 500 characters, emoji intact')
  t.notOk(email.text.includes('🍅'.repeat(500)))
  t.equal(Array.from(email.subject).length, 150, 'subject cut to 150')
  t.ok(email.subject.endsWith('…'))
  const family = familyEmail(LAYOUT, { message: `${'x'.repeat(200)}\nsecond line`, url: 'https://x.example' })
  t.equal(family.subject.length, 150)
  t.ok(family.text.includes('second line'), 'the body keeps the whole message')
})

t.test('digest: at most 50 newest, "and N more"', async t => {
  const base = Date.parse('2024-05-01T00:00:00Z')
  const items = Array.from({ length: 60 }, (_, i) => ({ message: `event ${i}`, createdAt: new Date(base + i * 60_000), url: `https://recipes.example/n/${i}` }))
  const email = digestEmail(LAYOUT, { username: 'ann', frequency: 'weekly', items, total: 75, notificationsUrl: 'https://recipes.example/notifications' })
  t.equal(email.subject, 'Your weekly Recipes digest: 75 new notifications')
  const listed = checkHtml(t, email, 'digest').filter(e => e.tagName === 'li')
  t.equal(listed.length, 51, '50 items and the "more" line')
  t.equal(textOf(listed[0]).trim().split(' ').slice(0, 2).join(' '), 'event 59', 'newest first')
  t.notOk(email.text.includes('event 9 '), 'the oldest are left out')
  t.ok(email.text.includes('event 10 (2024-05-01 00:10 UTC)'), 'dated in UTC')
  t.ok(email.text.includes('- and 25 more'), 'text: and 25 more')
  t.equal(textOf(listed[50]), 'and 25 more', 'html: and 25 more')

  const few = digestEmail(LAYOUT, { username: 'ann', frequency: 'daily', items: items.slice(0, 3), total: 5, notificationsUrl: 'https://recipes.example/notifications' })
  t.ok(few.text.includes('- and 2 more'), 'total beyond the items given')
  t.equal(few.subject, 'Your daily Recipes digest: 5 new notifications')
  const exact = digestEmail(LAYOUT, { username: 'ann', frequency: 'daily', items: items.slice(0, 1), total: 1, notificationsUrl: 'https://recipes.example/notifications' })
  t.notMatch(exact.text, /more/, 'no "more" when everything is listed')
  t.equal(exact.subject, 'Your daily Recipes digest: 1 new notification')
})

t.test('unsubscribe link: in both parts when given, absent otherwise', async t => {
  for (const [name, render] of Object.entries(HOSTILE)) {
    const withLink = render({ ...LAYOUT, unsubscribeUrl: UNSUBSCRIBE }, 'ann', 'https://recipes.example/x')
    t.ok(withLink.text.includes(`Unsubscribe: ${UNSUBSCRIBE}`), `${name}: text`)
    const links = checkHtml(t, withLink, name).filter(e => e.tagName === 'a')
    t.ok(links.some(a => textOf(a) === 'Unsubscribe' && a.attrs.some(attr => attr.name === 'href' && attr.value === UNSUBSCRIBE)), `${name}: HTML`)

    const without = render(LAYOUT, 'ann', 'https://recipes.example/x')
    t.notMatch(without.text, /unsubscribe/i, `${name}: no link in text`)
    t.notMatch(without.html, /unsubscribe/i, `${name}: no link in HTML`)
  }
  const bad = welcomeEmail({ ...LAYOUT, unsubscribeUrl: EVIL_URL }, { username: 'a' })
  t.notOk(bad.html.includes('javascript:'), 'a bad unsubscribe URL is replaced too')
})

t.test('what each email says', async t => {
  const reset = passwordResetEmail(LAYOUT, { username: 'ann', link: 'https://recipes.example/reset?token=t0k', expiresInMinutes: 30 })
  t.equal(reset.subject, 'Reset your Recipes password')
  t.ok(reset.text.includes('\nhttps://recipes.example/reset?token=t0k\n'), 'the link on its own line')
  t.ok(reset.text.includes('expires in 30 minutes'))
  t.ok(reset.html.includes('href="https://recipes.example/reset?token=t0k"'))

  const invite = familyInviteEmail(LAYOUT, { inviter: 'Bob', familyName: 'The Smiths', inviteCode: 'AB12CD34', joinUrl: 'https://recipes.example/join/AB12CD34' })
  t.equal(invite.subject, 'Bob invited you to join the family "The Smiths" on Recipes')
  t.ok(invite.text.includes('AB12CD34') && invite.html.includes('AB12CD34'), 'the code in both parts')

  const deletion = dataDeletionEmail(LAYOUT, { username: 'ann', deleteType: 'data', scheduledFor: new Date('2030-01-02T03:04:00Z'), statusUrl: 'https://recipes.example/status', cancelHint: 'Sign in before then to cancel.' })
  t.equal(deletion.subject, 'Your Recipes data is scheduled for deletion')
  t.ok(deletion.text.includes('2030-01-02 03:04 UTC') && deletion.text.includes('Sign in before then to cancel.'))
  t.equal(dataDeletionEmail(LAYOUT, { username: 'ann', deleteType: 'account', scheduledFor: new Date(), statusUrl: 'https://x.example', cancelHint: '' }).subject,
    'Your Recipes account is scheduled for deletion')

  t.equal(followerEmail(LAYOUT, { actor: 'Bob', profileUrl: 'https://recipes.example/u/bob' }).subject, 'Bob started following you')
  t.equal(newRecipeEmail(LAYOUT, { actor: 'Bob', recipeTitle: 'Soup', recipeUrl: 'https://recipes.example/r/1' }).subject, 'Bob published a new recipe: "Soup"')
  t.equal(welcomeEmail(LAYOUT, { username: 'ann' }).subject, 'Welcome to Recipes, ann!')
})
