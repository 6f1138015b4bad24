// The recipe app in Chromium, the account flows: register, sign out and in, a wrong password, the forgotten-password
// request and the reset link's page, and the settings screen (profile, avatar, password, email and notification
// preferences, a copy of my data, a deletion request and its cancellation).
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { bearer, eventually, json, login, pngImage, registerUser } from '../helper.js'
import { chromiumMissing, imageLoaded, startWebApp } from './web-app-helpers.js'

const PASSWORD = 'Correct-Horse-42'

t.test('the web app: accounts', { skip: chromiumMissing }, async t => {
  // A week's grace as in production (tests default to none), so the deletion request can be cancelled.
  const app = await startWebApp(t, { env: { DATA_DELETION_GRACE_SECONDS: String(7 * 24 * 3600) } })
  const { api } = app.bff

  await t.test('register from the sign-in screen, sign out, sign in again', async t => {
    const { page, go, said, shoot, errors } = await app.open(t)
    await go('/')
    t.equal(await page.locator('#signin-view').isVisible(), true, 'signed out: the sign-in form')
    t.equal(await page.locator('#main-nav').isVisible(), false, 'and no app menu')
    await shoot('sign-in')
    await page.click('text=Create an account')
    await page.waitForURL(`${app.origin}/register`)
    await page.waitForSelector('#register-form')
    t.equal(await page.title(), 'Create an account · Recipes')

    const form = page.locator('#register-form')
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Username').fill('ada_cooks')
    await form.getByLabel('Password').fill('short')
    await page.click('#register-button')
    await said(/Validation error|password/i)
    t.equal(await page.locator('body').getAttribute('data-state'), 'signed-out', 'a refused registration signs nobody in')

    await form.getByLabel('Password').fill(PASSWORD)
    await page.click('#register-button')
    await page.waitForSelector('body[data-state="signed-in"]')
    await said('Welcome, ada_cooks')
    t.equal(await page.textContent('#username'), 'ada_cooks', 'signed in as the new account')
    t.equal(new URL(page.url()).pathname, '/', 'on the recipe list')
    t.ok(await page.locator('#main-nav').isVisible(), 'the menu is shown')
    const [row] = await api.db<Array<{ email: string }>>`select email from users where username = 'ada_cooks'`
    t.equal(row.email, 'ada@example.com', 'the account exists')

    await page.click('#signout-button')
    await page.waitForSelector('body[data-state="signed-out"]')
    await said('Signed out')
    t.equal(await page.locator('#recipe-list').count(), 0, 'nothing of the session is left')

    await page.fill('#identifier', 'ada_cooks')
    await page.fill('#password', 'Wrong-Password-1')
    await page.click('#signin-button')
    await said(/Invalid|credentials|password/i)
    t.equal(await page.locator('body').getAttribute('data-state'), 'signed-out', 'a wrong password is refused')
    await page.fill('#identifier', 'ada@example.com')
    await page.fill('#password', PASSWORD)
    await page.click('#signin-button')
    await page.waitForSelector('body[data-state="signed-in"]')
    t.equal(await page.textContent('#username'), 'ada_cooks')
    t.same(errors, [], 'no script error or CSP violation')
  })

  await t.test('a link to a screen asks to sign in, then opens it', async t => {
    const user = await registerUser(api)
    const { page, go, errors } = await app.open(t)
    await go('/settings')
    t.ok(await page.locator('#signin-view').isVisible(), 'the sign-in form first')
    await page.fill('#identifier', user.username)
    await page.fill('#password', user.password)
    await page.click('#signin-button')
    await page.waitForSelector('#profile-form')
    t.equal(new URL(page.url()).pathname, '/settings', 'then the screen that was asked for')
    t.equal((await page.goto(`${app.origin}/no/such/screen`))?.status(), 404, 'a path of no screen is the proxy\'s 404')
    t.same(errors, [])
  })

  await t.test('forgotten password: the request, then the reset link\'s page', async t => {
    const user = await registerUser(api)
    const { page, go, said, errors } = await app.open(t)
    await go('/')
    await page.click('text=Forgot your password?')
    await page.waitForSelector('#forgot-form')
    await page.locator('#forgot-form').getByLabel('Email').fill(user.email)
    await page.click('#forgot-form button[type="submit"]')
    await page.waitForSelector('#forgot-done:visible')
    t.match(await page.textContent('#forgot-done'), /If an account exists/, 'the API\'s answer, the same for any address')

    const [email] = await eventually(async () => {
      const rows = await api.db<Array<{ text: string }>>`select text from email_outbox where "to" = ${user.email} and kind = 'password-reset'`
      return rows.length > 0 ? rows : null
    })
    const link = /(http:\/\/localhost:\d+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(email.text)?.[1]
    t.ok(link?.startsWith(app.origin), 'the email links to the proxy\'s own page')
    await page.goto(link!)
    await page.waitForSelector('#reset-form')
    await page.getByLabel('New password').fill('Brand-New-Secret-7')
    await page.click('#reset-form button[type="submit"]')
    await said('Password changed: sign in with the new one')
    t.equal(new URL(page.url()).search, '', 'the token is gone from the address bar')
    t.equal((await login(api, user.username, 'Brand-New-Secret-7')).statusCode, 200, 'the new password works')
    t.equal((await login(api, user.username, user.password)).statusCode, 401, 'the old one does not')

    await go('/reset-password')
    t.match(await page.textContent('#screen'), /incomplete/, 'a link without its token says so')
    t.same(errors, [])
  })

  await t.test('settings: profile, avatar, password, preferences, export, deletion', async t => {
    const user = await registerUser(api)
    const { page, go, said, shoot, errors, signIn } = await app.open(t)
    await signIn(user)
    await page.click('#account-link')
    await page.waitForSelector('#profile-form')

    await page.getByLabel('First name').fill('Grace')
    await page.getByLabel('About you').fill('I bake <b>bread</b>.')
    await page.click('#profile-form button[type="submit"]')
    await said('Profile saved')
    const profile = json(await api.inject({ url: '/api/users/profile', headers: bearer(user) })).user
    t.equal(profile.firstName, 'Grace')

    const avatar = join(tmpdir(), `avatar-${process.pid}.png`)
    await writeFile(avatar, await pngImage(120, 120, '#2e86de'))
    await page.setInputFiles('#avatar-input', avatar)
    await page.waitForSelector('#avatar-preview img[src^="data:image/png"]')
    await page.click('#avatar-form button[type="submit"]')
    await said('Avatar saved')
    const stored = json(await api.inject({ url: '/api/users/profile', headers: bearer(user) })).user.avatarUrl
    t.match(stored, /\/uploads\//, 'the avatar is stored')
    await page.waitForSelector('#avatar-preview img[src*="/uploads/"]')
    await imageLoaded(page, '#avatar-preview img')
    t.pass('and shown from the proxy\'s /uploads')

    await page.getByLabel('Current password').fill(user.password)
    await page.getByLabel('New password').fill('Another-Secret-9')
    await page.click('#password-form button[type="submit"]')
    await said('Password changed')
    await page.reload()
    await page.waitForSelector('body[data-state="signed-in"]')
    t.pass('still signed in after the change (the proxy keeps the new token)')
    const relogged = await login(api, user.username, 'Another-Secret-9')
    t.equal(relogged.statusCode, 200)
    const auth = bearer(json(relogged))

    await page.waitForSelector('#email-form')
    await page.getByLabel('Someone likes my recipe').uncheck()
    await page.getByLabel('How often').selectOption('weekly')
    await page.click('#email-form button[type="submit"]')
    await said('Preferences saved')
    const prefs = json(await api.inject({ url: '/api/users/email-preferences', headers: auth })).preferences
    t.equal(prefs.emailLikes, false)
    const settings = json(await api.inject({ url: '/api/users/notification-settings', headers: auth })).settings
    t.equal(settings.digestFrequency, 'weekly')
    await shoot('settings')

    await page.click('#export-button')
    await said('Your data is ready to download')
    const download = page.waitForEvent('download')
    await page.click('#export-link')
    const file = await download
    const exported = JSON.parse(await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8'))
    t.equal(exported.user.username, user.username, 'the download is my data')

    page.once('dialog', dialog => { dialog.accept().catch(() => {}) })
    await page.getByLabel(/I understand/).check()
    await page.click('#deletion-form button[type="submit"]')
    await said('Deletion requested')
    t.match(await page.textContent('#deletion-state'), /Deletion requested/)
    const requests = await api.db<Array<{ status: string }>>`select status from data_deletion_requests where user_id = ${user.id}`
    t.same(requests.map(r => r.status), ['pending'])
    await page.click('#cancel-deletion')
    await said('Deletion cancelled')
    const after = await api.db<Array<{ status: string }>>`select status from data_deletion_requests where user_id = ${user.id}`
    t.same(after.map(r => r.status), ['cancelled'])
    await go('/settings')
    t.same(errors, [])
  })
})
