// The recipe app in Chromium, households and meal planning: create a household and join it with its invite code,
// start a week's meal plan, add recipes to a day and meal (from the week view and from a recipe's page), share the plan
// with the household, make the grocery list from it and check items off at a phone's width.
import t from 'tap'
import { bearer, createRecipe, json, registerUser } from '../helper.js'
import { chromiumMissing, PHONE, startWebApp } from './web-app-helpers.js'

t.test('the web app: households, meal plan, groceries', { skip: chromiumMissing }, async t => {
  const app = await startWebApp(t)
  const { api } = app.bff
  const alex = await registerUser(api, { username: 'alex_home' })
  const sam = await registerUser(api, { username: 'sam_home' })
  const curry = await createRecipe(api, alex, { title: 'Chickpea curry', servings: 2, ingredients: ['400 g chickpeas', '1 onion', '200 ml coconut milk'] })
  const salad = await createRecipe(api, alex, { title: 'Green salad', servings: 2, ingredients: ['1 lettuce', '1 onion'] })

  await t.test('a household, a week plan, meals on days, shared, then the grocery list', async t => {
    const { page, signIn, said, ready, shoot, errors } = await app.open(t)
    await signIn(alex)
    await page.click('#main-nav >> text=Meal plan')
    await ready()
    t.match(await page.textContent('#plan-list'), /No meal plan yet/)

    await page.locator('#household-create').getByLabel('New household').fill('Flat 3B')
    await page.click('#household-create button[type="submit"]')
    await said(/Household created; its invite code is [0-9a-f]{8}/)
    const code = /([0-9a-f]{8})$/.exec(await page.textContent('#status') ?? '')![1]
    await ready()
    t.match(await page.textContent('#household-list'), /Flat 3B.*1 member.*owner.*invite code/s)

    t.match(await page.locator('#plan-name').inputValue(), /^Week of /, 'a plan for this week is suggested')
    const startDate = await page.locator('#plan-create').getByLabel('From').inputValue()
    await page.click('#plan-create button[type="submit"]')
    await said('Meal plan created')
    await ready()
    const planId = new URL(page.url()).pathname.split('/')[2]
    t.equal(await page.locator('#week .day').count(), 7, 'seven days')

    await page.selectOption('#meal-day', startDate)
    await page.selectOption('#meal-type', 'dinner')
    await page.fill('#meal-search', 'chickpea')
    await page.click('#meal-find')
    await page.waitForSelector('#meal-recipe option:checked:text-is("Chickpea curry")', { state: 'attached' })
    await page.click('#meal-add button[type="submit"]')
    await said(/^Added to dinner on /)
    const monday = page.locator(`#week .day[data-date="${startDate}"]`)
    t.match(await monday.textContent(), /Dinner\s*Chickpea curry/, 'on the day, under its meal')

    await page.fill('#meal-search', '')
    await page.selectOption('#meal-recipe', '')
    await page.fill('#meal-custom', 'Leftovers')
    await page.selectOption('#meal-type', 'lunch')
    await page.click('#meal-add button[type="submit"]')
    await said(/^Added to lunch on /)
    t.match(await monday.textContent(), /Lunch\s*Leftovers.*Dinner\s*Chickpea curry/s, 'meals in the order of the day')

    // From a recipe's page, the second day's lunch.
    await page.goto(`${app.origin}/recipes/${salad.id}`)
    await ready()
    const form = page.locator('#plan-form')
    const tuesday = await page.evaluate(d => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), startDate)
    await form.getByLabel('Day').fill(tuesday)
    await form.getByLabel('Meal', { exact: true }).selectOption('lunch')
    await page.click('#plan-form button[type="submit"]')
    await said(`Planned for lunch on ${tuesday}`)
    await page.goBack()
    await ready()
    t.match(await page.locator(`#week .day[data-date="${tuesday}"]`).textContent(), /Lunch\s*Green salad/)

    await page.locator('#share-form').getByLabel('Household').selectOption({ label: 'Flat 3B' })
    await page.click('#share-form button[type="submit"]')
    await said('Plan shared')
    await shoot('meal-plan')

    await page.click('#make-grocery')
    await said('Grocery list made from the plan')
    await ready()
    const listId = new URL(page.url()).pathname.split('/')[2]
    const labels = await page.locator('#grocery-items .check label').allTextContents()
    t.ok(labels.some(label => /chickpeas/.test(label)), 'the curry\'s chickpeas')
    t.ok(labels.some(label => /lettuce/.test(label)), 'the salad\'s lettuce')
    t.equal(labels.filter(label => /onion/.test(label)).length, 1, 'the onions of both recipes merged into one line')

    await page.setViewportSize(PHONE)
    const chickpeas = page.locator('#grocery-items .check', { hasText: 'chickpeas' })
    const box = await chickpeas.locator('label').boundingBox()
    t.ok(box != null && box.height >= 44 && box.width >= 200, `a touch target of 44 px or more on a phone (${box?.width}x${box?.height})`)
    await chickpeas.locator('label').click()
    await page.waitForSelector('#grocery-count:text-matches("^1 of [0-9]+ checked$")')
    const stored = json(await api.inject({ url: `/api/grocerylists/${listId}`, headers: bearer(alex) })).groceryList
    t.same(stored.items.filter((i: any) => i.checked).map((i: any) => i.name), ['chickpeas'], 'checked off through the API')
    await page.locator('#grocery-add').getByLabel('Add an item').fill('Dish soap')
    await page.click('#grocery-add button[type="submit"]')
    await said('Dish soap added')
    await shoot('grocery')
    await page.click('text=Remove checked items')
    await said('Checked items removed')
    t.notMatch(await page.textContent('#grocery-items'), /chickpeas/)
    t.ok(planId)
    t.same(errors, [])

    await t.test('the other member joins with the code and sees the shared plan', async t => {
      const other = await app.open(t)
      await other.signIn(sam)
      await other.page.click('#main-nav >> text=Meal plan')
      await other.ready()
      await other.page.locator('#household-join').getByLabel('Invite code').fill(code)
      await other.page.click('#household-join button[type="submit"]')
      await other.said('You joined Flat 3B')
      await other.ready()
      t.match(await other.page.textContent('#plan-list'), /shared by alex_home/, 'the shared plan is listed')
      await other.page.click(`#plan-list li[data-plan-id="${planId}"] a`)
      await other.ready()
      t.match(await other.page.locator(`#week .day[data-date="${startDate}"]`).textContent(), /Chickpea curry/)
      t.same(other.errors, [])
    })
  })
  t.ok(curry.id)
})
