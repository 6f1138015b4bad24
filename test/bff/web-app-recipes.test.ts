// The recipe app in Chromium, the recipe flows: create a recipe with the full form (structured ingredients, steps, a
// photo with its preview, tags, visibility), its page (picture, ingredients scaled by servings, steps), edit it and
// see its earlier version; browse page by page, search by title and by ingredient, filter by tag, cuisine and time;
// and what a reader does on a recipe: like and unlike, bookmark, rate, mark as cooked, add to a collection, comment,
// and the author's reply.
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { bearer, createRecipe, json, pngImage, registerUser } from '../helper.js'
import { chromiumMissing, imageLoaded, startWebApp } from './web-app-helpers.js'

t.test('the web app: recipes', { skip: chromiumMissing }, async t => {
  const app = await startWebApp(t)
  const { api } = app.bff
  const chef = await registerUser(api, { username: 'chef_luisa' })
  const reader = await registerUser(api, { username: 'reader_tom' })
  // Thirteen older recipes so that the list has two pages (twelve a page) once the new one is added.
  for (let i = 1; i <= 12; i++) {
    await createRecipe(api, chef, { title: `Stew number ${i}`, ingredients: ['1 onion', '500 g beef'], cuisine: 'French', totalTime: 180, tags: ['slow'] })
  }
  const paella = await createRecipe(api, chef, {
    title: 'Seafood paella',
    ingredients: ['300 g rice', '1 pinch saffron', '400 g mussels'],
    instructions: ['Toast the rice.', 'Add the stock and the saffron.'],
    cuisine: 'Spanish',
    totalTime: 25,
    servings: 4,
    tags: ['seafood']
  })
  const collection = json(await api.inject({ method: 'POST', url: '/api/collections', headers: bearer(reader), payload: { name: 'Weeknight dinners' } })).collection

  let recipeId = ''

  await t.test('create a recipe with the full form, then its page', async t => {
    const { page, signIn, said, shoot, errors } = await app.open(t)
    await signIn(chef)
    await page.click('#main-nav >> text=New recipe')
    await page.waitForSelector('#recipe-form')
    const form = page.locator('#recipe-form')
    await form.getByLabel('Title').fill('Spaghetti aglio e olio')
    await form.getByLabel('Description').fill('Garlic, oil, <em>chili</em>.')
    await form.getByLabel('Cuisine').fill('Italian')
    await form.getByLabel('Servings').fill('2')
    await form.getByLabel('Prep time (minutes)').fill('5')
    await form.getByLabel('Cook time (minutes)').fill('12')
    await form.getByLabel('Tags').fill('pasta, quick')

    const rows = page.locator('#ingredient-rows > li')
    await rows.nth(0).getByLabel('Amount').fill('200')
    await rows.nth(0).getByLabel('Unit').fill('g')
    await rows.nth(0).getByLabel('Ingredient').fill('spaghetti')
    await page.click('#add-ingredient')
    t.equal(await page.evaluate('document.activeElement === document.querySelectorAll("#ingredient-rows [name=quantity]")[1]'), true, 'a new row takes the focus')
    await rows.nth(1).getByLabel('Amount').fill('3')
    await rows.nth(1).getByLabel('Ingredient').fill('garlic cloves')
    await rows.nth(1).getByLabel('Note').fill('thinly sliced')
    await page.click('#add-ingredient')
    await rows.nth(2).getByLabel('Ingredient').fill('a mistake')
    await rows.nth(2).getByRole('button', { name: 'Remove ingredient' }).click()
    t.equal(await rows.count(), 2, 'a row can be removed')

    const steps = page.locator('#step-rows > li')
    await steps.nth(0).getByLabel('Step').fill('Boil the pasta.')
    await page.click('#add-step')
    await steps.nth(1).getByLabel('Step').fill('Fry the garlic in oil, toss with the pasta.')

    const photo = join(tmpdir(), `dish-${process.pid}.png`)
    await writeFile(photo, await pngImage(400, 300, '#e67e22'))
    await page.setInputFiles('#photo-input', photo)
    await page.waitForSelector('#photo-img[src^="data:image/png"]')
    t.pass('the photo is previewed at once')
    await page.waitForSelector('#photo-state:text-is("Photo uploaded")')
    await form.getByLabel('Visibility').selectOption('public')
    await shoot('editor')

    const created = page.waitForResponse(r => r.url() === `${app.origin}/bff/api/recipes` && r.request().method() === 'POST')
    await page.click('#save-recipe')
    const recipe = (await (await created).json()).recipe
    recipeId = recipe.id
    await said('Recipe saved')
    t.equal(new URL(page.url()).pathname, `/recipes/${recipe.id}`, 'the new recipe\'s page')
    t.same(recipe.ingredients.map((i: any) => [i.quantity, i.unit, i.name]), [[200, 'g', 'spaghetti'], [3, null, 'garlic cloves']], 'structured ingredients')
    t.same(recipe.instructions.map((s: any) => s.text), ['Boil the pasta.', 'Fry the garlic in oil, toss with the pasta.'])
    t.same(recipe.tags.map((tag: any) => tag.name).sort(), ['pasta', 'quick'])
    t.match(recipe.imageUrl, /\/uploads\//)

    t.equal(await page.textContent('#recipe-heading'), 'Spaghetti aglio e olio')
    await imageLoaded(page, 'img.hero')
    t.pass('the picture loads through the proxy')
    t.same(await page.locator('#ingredient-list li').allTextContents(), ['200 g spaghetti', '3 garlic cloves, thinly sliced'])
    await page.getByLabel(/Servings/).fill('5')
    t.same(await page.locator('#ingredient-list li').allTextContents(), ['500 g spaghetti', '7 1/2 garlic cloves, thinly sliced'], 'scaled to 5 servings')
    t.equal(await page.locator('.description').textContent(), 'Garlic, oil, <em>chili</em>.', 'markup stays text')
    t.equal(await page.locator('.recipe em').count(), 0)
    await shoot('recipe')

    await page.click('text=Edit')
    await page.waitForSelector('#recipe-form')
    await page.locator('#recipe-form').getByLabel('Title').fill('Spaghetti aglio, olio e peperoncino')
    await page.click('#save-recipe')
    await said('Changes saved')
    t.equal(await page.textContent('#recipe-heading'), 'Spaghetti aglio, olio e peperoncino')
    await page.click('text=Edit')
    await page.waitForSelector('#revisions-heading')
    t.match(await page.locator('#revisions-heading + ul').textContent(), /Version 1/, 'the earlier version is listed')
    t.same(errors, [])
  })

  await t.test('browse, page through, search and filter', async t => {
    const { page, signIn, shoot, errors, ready } = await app.open(t)
    await signIn(reader)
    const titles = async () => await page.locator('#recipe-list .recipe-title').allTextContents()
    t.equal((await titles()).length, 12, 'twelve a page')
    t.equal(await page.textContent('.page-of'), 'Page 1 of 2')
    t.equal((await titles())[0], 'Spaghetti aglio, olio e peperoncino', 'newest first')
    await shoot('browse')
    await page.click('text=Next →')
    await page.waitForSelector('.page-of:text-is("Page 2 of 2")')
    t.equal((await titles()).length, 2, 'the rest on page two')

    const search = async (fields: Record<string, string>) => {
      for (const [label, value] of Object.entries(fields)) {
        const control = page.locator('#search-form').getByLabel(label)
        if (await control.evaluate(el => el.tagName) === 'SELECT') await control.selectOption(value)
        else await control.fill(value)
      }
      const before = page.url()
      await page.click('#search-button')
      await page.waitForURL(url => url.href !== before)
      await ready()
      return await titles()
    }
    t.same(await search({ 'Search recipes': 'saffron' }), ['Seafood paella'], 'by ingredient')
    t.match(page.url(), /\?q=saffron$/, 'the search is in the address, so back and reload keep it')
    t.same(await search({ 'Search recipes': 'PAELLA' }), ['Seafood paella'], 'by title')
    t.equal((await search({ 'Search recipes': 'stew', Tag: 'slow' })).length, 12, 'by tag')
    t.same(await search({ 'Search recipes': '', Tag: '', Cuisine: 'Spanish' }), ['Seafood paella'], 'by cuisine')
    t.same((await search({ Cuisine: '', Time: '30' })).sort(), ['Seafood paella', 'Spaghetti aglio, olio e peperoncino'], 'by time')
    t.same(await search({ 'Search recipes': 'nothing like this', Time: '' }), [])
    t.equal(await page.textContent('.summary'), 'No recipe matches.')
    await page.goBack()
    await ready()
    t.equal((await titles()).length, 2, 'back shows the previous search')
    t.same(errors, [])
  })

  await t.test('a reader likes, bookmarks, rates, cooks, collects and comments; the author replies', async t => {
    const { page, signIn, said, go, errors } = await app.open(t)
    await signIn(reader)
    await page.click(`#recipe-list li[data-recipe-id="${paella.id}"] .recipe-title`)
    await page.waitForSelector('#recipe-heading')
    t.equal(await page.textContent('#recipe-heading'), 'Seafood paella')
    t.equal(await page.evaluate('document.activeElement?.id'), 'recipe-heading', 'the focus moves to the new screen\'s heading')

    await page.click('#like-button')
    await said('Liked')
    t.equal(await page.textContent('#like-count'), '1')
    t.equal(await page.getAttribute('#like-button', 'aria-pressed'), 'true')
    await page.click('#like-button')
    await said('Like removed')
    t.equal(await page.textContent('#like-count'), '0', 'a like can be undone')

    await page.click('#bookmark-button')
    await said('Saved to your bookmarks')
    await page.locator('#rating').getByLabel('4 stars').check()
    await said('Rated 4 out of 5')
    t.equal(await page.textContent('#rating-summary'), '4.0 out of 5 from 1 rating')
    await page.click('#cooked-button')
    await said('Marked as cooked')
    await page.locator('#collection-form').getByLabel('Collection').selectOption(collection.id)
    await page.click('#collection-form button[type="submit"]')
    await said('Added to Weeknight dinners')

    await page.fill('#comment-text', 'Made it <b>twice</b>!')
    const posted = page.waitForResponse(r => r.url().endsWith(`/bff/api/comments/recipe/${paella.id}`) && r.request().method() === 'POST')
    await page.click('#comment-form button[type="submit"]')
    const comment = (await (await posted).json()).comment
    await said('Comment posted')
    t.match(comment.content, /<b>twice<\/b>/, 'the API keeps the harmless markup')
    t.equal(await page.locator('#comment-list .comment-text').first().textContent(), comment.content, 'the page shows it as text')
    t.equal(await page.locator('#comment-list b').count(), 0, 'no element came from the data')

    const stored = json(await api.inject({ url: `/api/recipes/${paella.id}`, headers: bearer(reader) })).recipe
    t.equal(stored.isBookmarked, true)
    t.equal(stored.userRating, 4)
    t.equal(stored.isLiked, false)
    const items = json(await api.inject({ url: `/api/collections/${collection.id}/recipes`, headers: bearer(reader) })).items
    t.same(items.map((i: any) => i.recipeId), [paella.id])
    const cooked = await api.db<Array<{ n: number }>>`select count(*)::int as n from cooked_recipes where user_id = ${reader.id}`
    t.equal(cooked[0].n, 1)

    const author = await app.open(t)
    await author.signIn(chef)
    await author.go(`/recipes/${paella.id}`)
    await author.page.click('#comment-list .reply-button')
    await author.page.locator('#comment-list .reply-form').getByLabel('Your reply').fill('Thank you!')
    await author.page.click('#comment-list .reply-form button[type="submit"]')
    await author.said('Reply posted')
    t.same(author.errors, [])

    await go(`/recipes/${paella.id}`)
    await page.waitForSelector('#comment-list .replies .comment')
    t.match(await page.textContent('#comment-list .replies .comment'), /chef_luisa \(author\).*Thank you!/s, 'the reader sees the author\'s reply')
    t.ok(recipeId, 'the recipe of the first subtest exists')
    t.same(errors, [])
  })
})
