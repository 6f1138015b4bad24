// POST /api/ai-recipes/search-by-ingredients: ranking, the normalisation (plurals, accents, punctuation), whole-word
// matching, visibility, bounds, that edits and deletions show at once, and the bounded reads (complete matches, the
// window of most liked recipes, word and word-pair lookups). Every test file has its own database, but the tests
// below share it: each uses its own made-up words, or judges only the recipes it created.
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { befriend, bearer, build, createRecipe, json, patchRecipe, registerUser, setAccountStatus, type TestUser } from '../../../helper.js'
import { indexLookups } from '../../../../lib/ingredient-names.js'

const URL = '/api/ai-recipes/search-by-ingredients'

interface Match { recipe: Record<string, any>, matchedIngredients: string[], missingIngredients: string[], matchScore: number }

async function search (app: FastifyInstance, user: TestUser, ingredients: unknown, limit?: number) {
  return await app.inject({ method: 'POST', url: URL, headers: bearer(user), payload: { ingredients, ...(limit !== undefined && { limit }) } })
}

/** The matches of a successful search, only those of `recipes` (by id), in the order returned. */
async function matches (app: FastifyInstance, user: TestUser, ingredients: string[], recipes?: Array<Record<string, any>>): Promise<Match[]> {
  const res = await search(app, user, ingredients, 50)
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`)
  const body = json(res)
  if (body.success !== true) throw new Error(`not a success: ${res.body}`)
  const ids = recipes == null ? null : new Set(recipes.map(r => r.id))
  return (body.recipes as Match[]).filter(m => ids == null || ids.has(m.recipe.id))
}

const titles = (list: Match[]) => list.map(m => m.recipe.title)

t.test('search by ingredients', async t => {
  const app = await build(t)
  const cook = await registerUser(app)
  const seeker = await registerUser(app)
  const recipe = async (title: string, ingredients: unknown[], fields: Record<string, unknown> = {}) =>
    await createRecipe(app, cook, { title, ingredients, ...fields })

  t.test('ranking: score, then ingredients matched, then likes, then newest', async t => {
    const r = {
      all: await recipe('Rank all', ['2 qxchicken breasts', '1 cup qxrice', 'qxsalt']),
      half: await recipe('Rank half', ['qxchicken thighs', 'qxrice', 'qxsaffron', 'qxpeas']),
      threeFifths: await recipe('Rank three fifths', ['qxchicken', 'qxsalt', 'qxgarlic', 'qxonion', 'qxcarrot']),
      halfOne: await recipe('Rank half one', ['qxbeef', 'qxsalt']),
      twoThirds: await recipe('Rank two thirds', ['qxsalt', 'qxrice', 'qxgarlic', 'qxchicken', 'qxlemon', 'qxthyme']),
      none: await recipe('Rank none', ['qxtofu', 'qxsoy sauce']),
      olderUnliked: await recipe('Rank older unliked', ['qxgarlic', 'qxfennel', 'qxdill']),
      liked: await recipe('Rank liked', ['qxgarlic', 'qxfennel', 'qxanise']),
      newerUnliked: await recipe('Rank newer unliked', ['qxgarlic', 'qxfennel', 'qxsage'])
    }
    const like = await app.inject({ method: 'POST', url: `/api/social/recipes/${r.liked.id}/like`, headers: bearer(seeker) })
    t.equal(like.statusCode, 200)

    const found = await matches(app, seeker, ['qxchicken', 'qxrice', 'qxsalt', 'qxgarlic'], Object.values(r))
    t.same(titles(found), [
      'Rank all', 'Rank two thirds', 'Rank three fifths', 'Rank half', 'Rank half one',
      'Rank liked', 'Rank newer unliked', 'Rank older unliked'
    ], 'best first; equal scores: more matched first, then more liked, then newer')
    t.same(found.map(m => m.matchScore), [1, 4 / 6, 3 / 5, 0.5, 0.5, 1 / 3, 1 / 3, 1 / 3], 'exact scores')
    const byTitle = (title: string) => found.find(m => m.recipe.title === title)!
    t.same(byTitle('Rank all').matchedIngredients, ['qxchicken breasts', 'qxrice', 'qxsalt'], 'ingredients as the recipe names them')
    t.same(byTitle('Rank all').missingIngredients, [])
    t.same(byTitle('Rank half').matchedIngredients, ['qxchicken thighs', 'qxrice'])
    t.same(byTitle('Rank half').missingIngredients, ['qxsaffron', 'qxpeas'], 'missing ones in the recipe\'s order')
    t.same(byTitle('Rank liked').recipe.likeCount, 1)

    // The recipe object is the one the recipe routes show (for this viewer: isLiked included).
    const detail = json(await app.inject({ url: `/api/recipes/${r.liked.id}`, headers: bearer(seeker) })).recipe
    t.same(byTitle('Rank liked').recipe, detail, 'the shared Recipe shape')
    t.equal(byTitle('Rank liked').recipe.isLiked, true)

    // `limit` keeps the best.
    const top = json(await search(app, seeker, ['qxchicken', 'qxrice', 'qxsalt', 'qxgarlic'], 2))
    t.same(top.recipes.map((m: Match) => m.recipe.title), ['Rank all', 'Rank two thirds'], 'limit 2: the two best')
  })

  t.test('limit: 20 by default, at most 50', async t => {
    for (let i = 0; i < 21; i++) await recipe(`Many ${i}`, ['zdcumin', `zdother${i}`])
    t.equal(json(await search(app, seeker, ['zdcumin'])).recipes.length, 20, 'no limit: 20')
    t.equal(json(await search(app, seeker, ['zdcumin'], 50)).recipes.length, 21, 'limit 50: all 21')
    t.equal(json(await search(app, seeker, ['zdcumin'], 3)).recipes.length, 3, 'limit 3')
  })

  t.test('plurals, accents, case and punctuation fold on both sides', async t => {
    const r = {
      plural: await recipe('Fold plural', ['3 Tomatoes', '2 cups blueberries', '1 bunch fresh basil leaves', '4 Eggs', 'Potatoes']),
      accents: await recipe('Fold accents', [{ name: 'Crème Fraîche', text: '200 ml crème fraîche' }, 'Jalapeño peppers', 'Gruyère']),
      singular: await recipe('Fold singular', ['1 tomato', '1 blueberry', 'basil leaf', '1 egg', 'potato']),
      invariant: await recipe('Fold invariant', ['asparagus', 'hummus', 'couscous', 'molasses']),
      greens: await recipe('Fold greens', ['collard greens']),
      greenBeans: await recipe('Fold green beans', ['green beans'])
    }
    const all = Object.values(r)
    const plural = await matches(app, seeker, ['TOMATO', 'blueberry!', 'Basil leaf', 'egg', 'potato'], all)
    t.same(titles(plural).sort(), ['Fold plural', 'Fold singular'], 'singular terms find plural and singular ingredients')
    t.same(plural.map(m => m.matchScore), [1, 1])
    t.same(plural.find(m => m.recipe.title === 'Fold plural')!.matchedIngredients, ['Tomatoes', 'blueberries', 'fresh basil leaves', 'Eggs', 'Potatoes'])
    const singular = await matches(app, seeker, ['tomatoes', 'Blueberries', 'basil leaves', 'EGGS', 'potatoes'], all)
    t.same(titles(singular).sort(), ['Fold plural', 'Fold singular'], 'plural terms too')

    const accents = await matches(app, seeker, ['creme fraiche', 'JALAPENO PEPPER', 'gruyere'], all)
    t.same(titles(accents), ['Fold accents'])
    t.equal(accents[0].matchScore, 1, 'accents and case folded')
    t.same(accents[0].matchedIngredients, ['Crème Fraîche', 'Jalapeño peppers', 'Gruyère'])
    t.same(titles(await matches(app, seeker, ['Crème-fraîche'], all)), ['Fold accents'], 'punctuation is a word break')

    const invariant = await matches(app, seeker, ['asparagus', 'hummus', 'couscous', 'molasses'], all)
    t.same(titles(invariant), ['Fold invariant'])
    t.equal(invariant[0].matchScore, 1, 'asparagus, hummus, couscous and molasses are not plurals')
    t.same(titles(await matches(app, seeker, ['greens'], all)), ['Fold greens'], 'greens (the leaves) are not the colour green')
    t.same(titles(await matches(app, seeker, ['green'], all)), ['Fold green beans'], 'nor the other way round')
  })

  t.test('a term matches whole words of an ingredient', async t => {
    const r = {
      thighs: await recipe('Whole thighs', ['2 lb boneless skinless zqchicken thighs', 'zqlemon']),
      breast: await recipe('Whole breast', ['zqchicken breast']),
      eggplant: await recipe('Whole eggplant', ['1 zqeggplant']),
      eggs: await recipe('Whole eggs', ['2 zqeggs', 'zqmilk']),
      peppers: await recipe('Whole peppers', ['black zqpepper', '1 red bell zqpepper, diced', 'zqpeppercorns'])
    }
    const all = Object.values(r)
    const found = await matches(app, seeker, ['zqchicken', 'zqegg', 'zqpepper'], all)
    t.same(titles(found).sort(), ['Whole breast', 'Whole eggs', 'Whole peppers', 'Whole thighs'], 'zqegg does not match zqeggplant')
    const byTitle = (title: string) => found.find(m => m.recipe.title === title)!
    t.same(byTitle('Whole thighs').matchedIngredients, ['boneless skinless zqchicken thighs'])
    t.same(byTitle('Whole peppers').matchedIngredients, ['black zqpepper', 'red bell zqpepper'], 'both peppers')
    t.same(byTitle('Whole peppers').missingIngredients, ['zqpeppercorns'], 'but not the peppercorns')
    t.equal(byTitle('Whole peppers').matchScore, 2 / 3)

    t.same(titles(await matches(app, seeker, ['zqchicken breast'], all)), ['Whole breast'], 'a term of several words matches them in order')
    t.same(titles(await matches(app, seeker, ['red zqpepper'], all)), [], 'and only in order, next to each other')
    t.same(titles(await matches(app, seeker, ['bell zqpepper'], all)), ['Whole peppers'])
  })

  t.test('the same ingredient counts once, in the terms and in the recipe', async t => {
    const twice = await recipe('Twice salted', [
      { name: 'zwsalt', text: 'zwsalt', group: 'Dough' }, { name: 'zwflour', text: 'zwflour', group: 'Dough' },
      { name: 'zwsalt', text: 'a pinch of zwsalt', group: 'Sauce' }
    ])
    const once = await matches(app, seeker, ['zwsalt'], [twice])
    t.equal(once[0].matchScore, 0.5, 'two distinct ingredients, one matched')
    t.same(once[0].matchedIngredients, ['zwsalt'])
    t.same(once[0].missingIngredients, ['zwflour'])
    const repeated = await matches(app, seeker, ['zwsalt', 'ZWSALT', ' zwsalts ', 'zwsalt'], [twice])
    t.same(repeated, once, 'a term given four times is one term')
  })

  t.test('a term\'s key is asked of PostgreSQL once per instance', async t => {
    const repo = app.ingredientSearchRepository
    const original = repo.keys
    const asked: string[][] = []
    repo.keys = async (db, terms) => {
      asked.push(terms)
      return await original(db, terms)
    }
    t.teardown(() => { repo.keys = original })
    await recipe('Keys once', ['2 qkfennel bulbs', 'qkdill'])
    t.same(titles(await matches(app, seeker, ['QKFennel', 'qkdill', 'qkdill'])), ['Keys once'])
    t.same(titles(await matches(app, seeker, ['qkdill', 'QKFennel', 'qkanise'])), ['Keys once'], 'the same answer with remembered keys')
    t.same(asked, [['QKFennel', 'qkdill'], ['qkanise']], 'each term once, and only those not asked before')
  })

  t.test('only what the public listing shows, to everyone', async t => {
    const other = await registerUser(app)
    const friend = await registerUser(app)
    await befriend(app, other, friend)
    const banned = await registerUser(app)
    const deactivated = await registerUser(app)
    const mine = (title: string, fields: Record<string, unknown> = {}) => createRecipe(app, friend, { title, ingredients: ['zvtruffle'], ...fields })
    const theirs = (title: string, fields: Record<string, unknown> = {}) => createRecipe(app, other, { title, ingredients: ['zvtruffle'], ...fields })
    const r = {
      public: await theirs('Vis public'),
      pending: await theirs('Vis pending'),
      private: await theirs('Vis private', { visibility: 'private' }),
      friends: await theirs('Vis friends', { visibility: 'friends' }),
      custom: await theirs('Vis custom', { visibility: 'custom', audienceUserIds: [friend.id] }),
      draft: await theirs('Vis draft', { published: false }),
      flagged: await theirs('Vis flagged'),
      rejected: await theirs('Vis rejected'),
      banned: await createRecipe(app, banned, { title: 'Vis banned', ingredients: ['zvtruffle'] }),
      deactivated: await createRecipe(app, deactivated, { title: 'Vis deactivated', ingredients: ['zvtruffle'] }),
      ownPublic: await mine('Vis own public'),
      ownPrivate: await mine('Vis own private', { visibility: 'private' }),
      ownDraft: await mine('Vis own draft', { published: false })
    }
    // Moderation is an admin action: set in the table, as the recipe visibility tests do.
    await app.db`update recipes set moderation_status = 'pending' where id = ${r.pending.id}`
    await app.db`update recipes set moderation_status = 'flagged' where id = ${r.flagged.id}`
    await app.db`update recipes set moderation_status = 'rejected' where id = ${r.rejected.id}`
    const before = await matches(app, friend, ['zvtruffle'])
    t.same(titles(before).sort(), ['Vis banned', 'Vis deactivated', 'Vis own public', 'Vis pending', 'Vis public'], 'before the bans')
    await setAccountStatus(app, banned, { banned: true })
    await setAccountStatus(app, deactivated, { active: false })

    const listed = ['Vis own public', 'Vis pending', 'Vis public']
    t.same(titles(await matches(app, friend, ['zvtruffle'])).sort(), listed, 'the friend (custom audience, own private recipe) sees the listing only')
    t.same(titles(await matches(app, other, ['zvtruffle'])).sort(), listed, 'so does the author of the hidden ones')
    t.same(titles(await matches(app, seeker, ['zvtruffle'])).sort(), listed, 'and a stranger')
  })

  t.test('an edit shows at once, a deleted recipe is gone', async t => {
    const edited = await recipe('Edited', ['zeapple', 'zeflour'])
    const deleted = await recipe('Deleted', ['zepear'])
    t.same(titles(await matches(app, seeker, ['zepear'])), ['Deleted'])
    t.same(titles(await matches(app, seeker, ['zeapple'])), ['Edited'])

    await patchRecipe(app, cook, edited.id, { ingredients: ['zepear', 'zeflour', 'zesugar'] })
    t.same(titles(await matches(app, seeker, ['zeapple'])), [], 'the old ingredient no longer matches')
    const pear = await matches(app, seeker, ['zepear', 'zeflour'])
    t.same(titles(pear), ['Deleted', 'Edited'], 'the new ones do')
    t.same(pear.map(m => m.matchScore), [1, 2 / 3])
    t.same(pear[1].missingIngredients, ['zesugar'])

    const removed = await app.inject({ method: 'DELETE', url: `/api/recipes/${deleted.id}`, headers: bearer(cook) })
    t.equal(removed.statusCode, 200)
    t.same(titles(await matches(app, seeker, ['zepear'])), ['Edited'], 'the deleted recipe is gone')

    await patchRecipe(app, cook, edited.id, { visibility: 'private' })
    t.same(titles(await matches(app, seeker, ['zepear'])), [], 'so is one made private')
  })

  t.test('no recipe uses the ingredients: an empty list', async t => {
    const res = await search(app, seeker, ['zznothing uses this'])
    t.equal(res.statusCode, 200)
    t.same(json(res), { success: true, recipes: [] })
  })

  t.test('bounds and errors, in the envelope', async t => {
    const invalid = async (ingredients: unknown, limit: number | undefined, detail: RegExp, why: string) => {
      const res = await search(app, seeker, ingredients, limit)
      t.equal(res.statusCode, 400, `400: ${why}`)
      const body = json(res)
      t.equal(body.success, false, why)
      t.equal(body.error, 'Validation error', why)
      t.ok(body.details.some((d: string) => detail.test(d)), `${why}: ${JSON.stringify(body.details)}`)
    }
    const thirty = Array.from({ length: 30 }, (_, i) => `zbingredient${i}`)
    t.equal((await search(app, seeker, thirty)).statusCode, 200, '30 ingredients are fine')
    await invalid([...thirty, 'zbone more'], undefined, /^ingredients: .*30/, '31 ingredients')
    await invalid([], undefined, /^ingredients: .*1/, 'no ingredient')
    await invalid(undefined, undefined, /^ingredients: is required/, 'no ingredients field')
    await invalid(['zbsalt', ''], undefined, /^ingredients\[1\]: .*1/, 'an empty ingredient')
    await invalid(['zbsalt', '   '], undefined, /^ingredients\[1\]: must not be blank/, 'a blank ingredient')
    await invalid(['x'.repeat(101)], undefined, /^ingredients\[0\]: .*100/, 'an ingredient of 101 characters')
    t.equal((await search(app, seeker, ['x'.repeat(100)])).statusCode, 200, '100 characters are fine')
    await invalid(['!!!', '--'], undefined, /^ingredients: must name at least one ingredient/, 'nothing but punctuation')
    await invalid(['zbsalt'], 51, /^limit: .*50/, 'limit 51')
    await invalid(['zbsalt'], 0, /^limit: .*1/, 'limit 0')
    t.equal((await search(app, seeker, ['zbsalt'], 50)).statusCode, 200, 'limit 50 is fine')

    const anonymous = await app.inject({ method: 'POST', url: URL, payload: { ingredients: ['zbsalt'] } })
    t.equal(anonymous.statusCode, 401)
    t.same(json(anonymous), { success: false, error: 'Authentication required', details: [] }, 'no token: 401 envelope')
    const garbled = await app.inject({ method: 'POST', url: URL, headers: { authorization: 'Bearer nope' }, payload: { ingredients: ['zbsalt'] } })
    t.equal(garbled.statusCode, 401, 'a bad token: 401')
    t.equal(json(garbled).success, false)
  })

  // The three tests below read with small bounds (the service's own are for 100,000 recipes): they run last, and each
  // makes its recipes the most liked of the listing (more likes than any earlier recipe), so the window is theirs.
  const likedBy = async (fans: TestUser[], recipes: Array<Record<string, any>>) => {
    for (const r of recipes) {
      for (const fan of fans) {
        const res = await app.inject({ method: 'POST', url: `/api/social/recipes/${r.id}/like`, headers: bearer(fan) })
        if (res.statusCode !== 200) throw new Error(`like failed: ${res.body}`)
      }
    }
  }
  const titlesOf = (list: Array<{ recipe: Record<string, any> }>, recipes: Array<Record<string, any>>) =>
    list.filter(m => recipes.some(r => r.id === m.recipe.id)).map(m => m.recipe.title)
  // Another author: the free plan's recipe limit.
  const baker = await registerUser(app)
  const bake = async (title: string, ingredients: unknown[]) => await createRecipe(app, baker, { title, ingredients })

  t.test('bounded work: complete matches always, rarer words through the index, common words in the window', async t => {
    const fans = [await registerUser(app), await registerUser(app)]
    const liked = [
      await bake('Bound liked 1', ['zkwater', 'zkflour']),
      await bake('Bound liked 2', ['zkwater', 'zkyeast', 'zkflour']),
      await bake('Bound liked 3', ['zkwater', 'zkoats'])
    ]
    await likedBy(fans, liked)
    const others = [
      await bake('Bound rare', ['zkwater', 'zkthyme', 'zksaffron']),
      await bake('Bound common only', ['zkwater', 'zkbarley']),
      await bake('Bound complete', ['zkflour', 'zkwater', 'zksaffron'])
    ]
    const all = [...liked, ...others]
    const run = async (bounds: { covering: number, window: number, budget: number, cap: number }) =>
      titlesOf(await app.ingredientSearchService.search(seeker.id, { ingredients: ['zkwater', 'zksaffron', 'zkflour'], limit: 50 }, bounds), all)

    // complete 3/3, liked 1 2/2, liked 2 2/3 (2 likes), rare 2/3, liked 3 1/2 (2 likes), common only 1/2. None of these
    // words is a staple: a recipe's two "least common" ingredients are its first two, so only complete and liked 1
    // have both in the terms (the pair index).
    const exact = ['Bound complete', 'Bound liked 1', 'Bound liked 2', 'Bound rare', 'Bound liked 3', 'Bound common only']
    t.same(await run({ covering: 1000, window: 100_000, budget: 1, cap: 0 }), exact, 'a window over the whole listing: exact')
    // The window: the three liked recipes and one other. zksaffron is not in them (looked up in the word index);
    // zkwater (3 of the 4) and zkflour (2) stand for more recipes than a budget of 1.
    t.same(await run({ covering: 1000, window: 4, budget: 1, cap: 2000 }), exact.filter(title => title !== 'Bound common only'),
      'a small window: the rare word is looked up; a recipe sharing only common words, liked by none, is not ranked')
    t.same(await run({ covering: 1000, window: 4, budget: 100_000, cap: 2000 }), exact, 'a large budget looks every word up')
    t.same(await run({ covering: 1000, window: 4, budget: 1, cap: 0 }), ['Bound complete', 'Bound liked 1', 'Bound liked 2', 'Bound liked 3'],
      'no word lookup: complete matches are still found, through the pair index')
    t.same(await run({ covering: 0, window: 4, budget: 1, cap: 0 }), ['Bound liked 1', 'Bound liked 2', 'Bound liked 3'],
      'nor a pair lookup: only the window')
  })

  t.test('bounded work: recipes using two fairly common words are looked up by the pair', async t => {
    const fans = [await registerUser(app), await registerUser(app), await registerUser(app)]
    await likedBy(fans, [
      await bake('Pair liked 1', ['zpcumin', 'zpx1']),
      await bake('Pair liked 2', ['zpcumin', 'zpx2']),
      await bake('Pair liked 3', ['zpcoriander', 'zpx3']),
      await bake('Pair liked 4', ['zpcoriander', 'zpx4'])
    ])
    const both = await bake('Pair both', ['zpcumin', 'zpcoriander', 'zpmissing'])
    const one = await bake('Pair one', ['zpcumin', 'zpmissing'])
    const [{ listed }] = await app.db<Array<{ listed: number }>>`select listed_count::int as listed from recipe_listing`
    // Each word is in 2 of the 4 recipes of the window: about listed / 2 recipes, over a budget of listed / 4; never
    // together in it, the pair is expected in about listed / 4, which fits.
    const found = titlesOf(await app.ingredientSearchService.search(seeker.id, { ingredients: ['zpcumin', 'zpcoriander'], limit: 50 },
      { covering: 0, window: 4, budget: listed / 4, cap: 2000 }), [both, one])
    t.same(found, ['Pair both'], 'the recipe with both words is found, the one with only one of them is not')
    const wider = titlesOf(await app.ingredientSearchService.search(seeker.id, { ingredients: ['zpcumin', 'zpcoriander'], limit: 50 },
      { covering: 0, window: 4, budget: listed, cap: 2000 }), [both, one])
    t.same(wider, ['Pair both', 'Pair one'], 'with room for the words themselves, both are')
  })
})

t.test('index lookups from the sample (lib/ingredient-names.ts)', async t => {
  const sample = (names: string[][]) => names.map((list, i) => ({ id: `s${i}`, names: list, likeCount: 0, createdAt: 0 }))
  // 100 listed recipes, a window of 10: each sample recipe stands for 10.
  const window = sample([['salt', 'black pepper'], ['salt', 'water'], ['salt'], ['salt', 'cumin'], ['coriander'], ['cumin seed'], ['coriander leaf']])
  t.same(indexLookups(['saffron', 'salt'], window, 100, 10, 25), { words: ['saffron'], pairs: [] },
    'a word not in the sample is looked up; salt (in 4 of 10: about 40 recipes) is over the budget')
  t.same(indexLookups(['saffron', 'salt'], window, 100, 10, 40), { words: ['saffron', 'salt'], pairs: [] }, 'unless the budget allows it')
  t.same(indexLookups(['black pepper'], window, 100, 10, 10), { words: ['black'], pairs: [] },
    'a term of several words is looked up by its rarest word')
  t.same(indexLookups(['cumin', 'coriander'], window, 100, 10, 15), { words: [], pairs: [['coriander', 'cumin']] },
    'two words over the budget, never together: the pair is (about 10 recipes)')
  t.same(indexLookups(['cumin', 'coriander'], window, 100, 10, 5), { words: [], pairs: [] }, 'not over a budget of 5')
  t.same(indexLookups(['cumin', 'coriander', 'salt'], window, 100, 10, 15), { words: [], pairs: [['coriander', 'cumin']] },
    'pairs least often together first, within the budget')
  const staples = sample([['salt'], ['salt'], ['salt'], ['salt'], ['salt'], ['sugar'], ['sugar'], ['sugar'], ['sugar'], ['sugar']])
  t.same(indexLookups(['salt', 'sugar'], staples, 100, 10, 10), { words: [], pairs: [] },
    'never a pair of two words each standing for more than 4 budgets (the lookup reads the rarer one\'s entries)')
  t.same(indexLookups(['salt', 'sugar'], staples, 100, 10, 13), { words: [], pairs: [['salt', 'sugar']] }, 'within 4 budgets it is')
  t.same(indexLookups(['salt', 'cumin', 'coriander'], window, 100, 10, 100), { words: ['coriander', 'cumin', 'salt'], pairs: [] },
    'a budget for every word: no pairs are needed')
})
