// The recipe app in Chromium, the social screens: collections (create one, see its recipes, remove one) and bookmarks;
// a profile with follow; the activity feed of followed people; notifications with the unread badge in the menu and
// mark-as-read.
import t from 'tap'
import { bearer, createRecipe, json, registerUser } from '../helper.js'
import { chromiumMissing, startWebApp } from './web-app-helpers.js'

t.test('the web app: collections, feed, notifications', { skip: chromiumMissing }, async t => {
  const app = await startWebApp(t)
  const { api } = app.bff
  const cook = await registerUser(api, { username: 'cook_mira' })
  const fan = await registerUser(api, { username: 'fan_leo' })
  const soup = await createRecipe(api, cook, { title: 'Tomato soup', ingredients: ['1 kg tomatoes'] })

  await t.test('collections and bookmarks', async t => {
    const { page, signIn, said, shoot, ready, errors } = await app.open(t)
    await signIn(fan)
    await page.click('#main-nav >> text=Collections')
    await page.waitForSelector('#collection-create')
    await page.fill('#collection-name', 'Soups <i>and</i> stews')
    await page.click('#collection-create button[type="submit"]')
    await said('Collection "Soups <i>and</i> stews" created')
    await ready()
    t.equal(await page.textContent('#view h1:visible'), 'Soups <i>and</i> stews', 'the name as text')
    t.match(await page.textContent('#collection-recipes'), /No recipe here yet/)
    const collectionId = new URL(page.url()).pathname.split('/')[2]

    await page.goto(`${app.origin}/recipes/${soup.id}`)
    await ready()
    await page.locator('#collection-form').getByLabel('Collection').selectOption(collectionId)
    await page.click('#collection-form button[type="submit"]')
    await said('Added to Soups <i>and</i> stews')
    await page.click('#bookmark-button')
    await said('Saved to your bookmarks')

    await page.click('#main-nav >> text=Collections')
    await ready()
    t.match(await page.textContent(`#collection-list li[data-collection-id="${collectionId}"]`), /1 recipe/)
    t.same(await page.locator('#bookmark-list .recipe-title').allTextContents(), ['Tomato soup'], 'bookmarks are listed')
    await shoot('collections')
    await page.click(`#collection-list li[data-collection-id="${collectionId}"] a`)
    await ready()
    t.same(await page.locator('#collection-recipes .recipe-title').allTextContents(), ['Tomato soup'])
    await page.getByRole('button', { name: 'Remove from the collection' }).click()
    await said('Removed from the collection')
    const items = json(await api.inject({ url: `/api/collections/${collectionId}/recipes`, headers: bearer(fan) })).items
    t.same(items, [], 'removed through the API')
    t.same(errors, [])
  })

  await t.test('follow from a profile, then the feed', async t => {
    const { page, signIn, said, ready, errors } = await app.open(t)
    await signIn(fan)
    await page.click('#main-nav >> text=Feed')
    await ready()
    t.match(await page.textContent('#feed-list'), /Nothing yet/)
    await page.goto(`${app.origin}/recipes/${soup.id}`)
    await ready()
    await page.click('.recipe .meta a')
    await ready()
    t.equal(new URL(page.url()).pathname, '/users/cook_mira')
    await page.click('#follow-button')
    await said('Following cook_mira')
    t.equal(await page.textContent('#follower-count'), '1')
    t.same(await page.locator('#user-recipes .recipe-title').allTextContents(), ['Tomato soup'], 'their recipes')

    await createRecipe(api, cook, { title: 'Fresh bread', ingredients: ['500 g flour'] })
    await page.click('#main-nav >> text=Feed')
    await ready()
    t.same(await page.locator('#feed-list .recipe-title').allTextContents(), ['Fresh bread', 'Tomato soup'], 'new recipes of followed people')
    t.same(errors, [])
  })

  await t.test('notifications: the unread badge, mark one and all as read', async t => {
    const { page, signIn, ready, said, shoot, errors } = await app.open(t)
    // The fan likes and comments on the cook's soup: two notifications for the cook.
    await api.inject({ method: 'POST', url: `/api/social/recipes/${soup.id}/like`, headers: bearer(fan) })
    await api.inject({ method: 'POST', url: `/api/comments/recipe/${soup.id}`, headers: bearer(fan), payload: { content: 'Lovely' } })
    const unread = json(await api.inject({ url: '/api/notifications/unread-count', headers: bearer(cook) })).unreadCount
    t.ok(unread >= 2, `the cook has ${unread} unread notifications`)

    await signIn(cook)
    await page.waitForSelector(`#unread-badge:text-is("${unread}")`)
    t.equal(await page.isVisible('#unread-badge'), true, 'the badge shows the unread count')
    t.equal(await page.getAttribute('#notifications-link', 'aria-label'), `Notifications, ${unread} unread`)
    await page.click('#notifications-link')
    await ready()
    t.equal(await page.locator('#notification-list .unread').count(), unread)
    await shoot('notifications')
    await page.locator('#notification-list .mark-read').first().click()
    await page.waitForSelector(`#unread-badge:text-is("${unread - 1}")`)
    t.equal(await page.locator('#notification-list .unread').count(), unread - 1, 'one marked as read')
    await page.click('#read-all')
    await said('All notifications marked as read')
    t.equal(await page.isVisible('#unread-badge'), false, 'no badge once all are read')
    t.equal(json(await api.inject({ url: '/api/notifications/unread-count', headers: bearer(cook) })).unreadCount, 0)
    t.same(errors, [])
  })
})
