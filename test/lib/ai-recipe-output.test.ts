// Reading a model's reply (lib/ai/recipe-output.ts): the object found in prose, fences and wrappers; hostile replies
// read in work linear in their size, and lists cut before their items are normalised (counted, not timed:
// test/helpers/work.ts; `npm run bench:hostile-input` times the same replies); large replies read on a worker thread.
import t from 'tap'
import { extractJson, objectSpans, READ_LIMITS, readRecipe, toMinutes, type GeneratedRecipe, type ReadResult } from '../../lib/ai/recipe-output.js'
import { createReplyReader, READ_ON_THREAD_CHARS } from '../../lib/ai/reply-reader.js'
import { RECIPE_LIMITS } from '../../schemas/recipes.js'
import { hostileReplies, recipeReply } from '../helpers/hostile-ai-replies.js'
import { countWork, LINEAR_GROWTH, workOf } from '../helpers/work.js'

const RECIPE = { title: 'Plain Rice', ingredients: ['1 cup rice', '2 cups water'], instructions: ['Simmer 15 minutes.'] }
const TEXT = JSON.stringify(RECIPE)

function recipeOf (result: ReadResult): GeneratedRecipe {
  if (!result.ok) throw new Error(`not a recipe: ${JSON.stringify(result)}`)
  return result.recipe
}

t.test('the object is found in the whole reply, a fence, prose around it, or inside what is not JSON', async t => {
  const found: Array<[string, string]> = [
    ['the whole reply', `  ${TEXT}\n`],
    ['a json fence', `Here you go:\n\`\`\`json\n${TEXT}\n\`\`\`\nEnjoy!`],
    ['a bare fence, no newline', `\`\`\`${TEXT}\`\`\``],
    ['a fence after one holding no object', `\`\`\`text\nnot this\n\`\`\`\n\`\`\`json\n${TEXT}\n\`\`\``],
    ['prose before and after', `I think you will like this. ${TEXT} Bye.`],
    ['stray braces in prose before it', `Use a {large} pot. ${TEXT}`],
    ['a brace in prose that never closes', `Here it is {as asked: ${TEXT}`],
    ['an outer object that is not JSON', `{recipe: ${TEXT}}`],
    ['a quote in prose before it', `Here's "the one ${TEXT}`],
    ['two objects: the first', `${TEXT} and also {"title": "Other"}`]
  ]
  for (const [name, reply] of found) t.same(extractJson(reply), RECIPE, name)

  const tricky = { title: 'Braces } in { strings "quoted" \\ too', ingredients: ['1 {odd} egg'], instructions: ['Whisk }}.'] }
  t.same(extractJson(`Sure: ${JSON.stringify(tricky)}`), tricky, 'braces, quotes and backslashes inside strings')
  t.same(extractJson(`{"recipe": ${TEXT}}`), { recipe: RECIPE }, 'a wrapper is the object (readRecipe unwraps it)')

  for (const reply of ['', 'no object here', '[1, 2]', '"a string"', '{"title": "never closed"', '{not json}', '```\n[1]\n```']) {
    t.equal(extractJson(reply), undefined, `nothing in ${JSON.stringify(reply)}`)
  }
})

t.test('objectSpans: closed objects in the order they open, in one pass', async t => {
  const text = 'a {b {c} "{" d} {e'
  t.same(objectSpans(text).map(([start, end]) => text.slice(start, end)), ['{b {c} "{" d}', '{c}'], 'a quote in an object opens a string')
  const prose = 'say "{x}" then {y}'
  t.same(objectSpans(prose).map(([start, end]) => prose.slice(start, end)), ['{x}', '{y}'], 'quotes outside every object are prose')
  t.same(objectSpans('{1}{2}{3}{4}', 2), [[0, 3], [3, 6]], 'at most `max`, the first ones')
  t.same(objectSpans('{{{}}}', 2), [[0, 6], [1, 5]], 'outer before inner, whatever order they close in')
})

t.test('readRecipe: a recipe, a wrapper, a refusal, or what is wrong', async t => {
  t.match(recipeOf(readRecipe(`{"recipe": ${TEXT}}`)), { title: 'Plain Rice', ingredients: [{ name: 'rice', quantity: 1, unit: 'cup' }, { name: 'water' }] })
  t.same(readRecipe('{"refusal": "I cannot help with that."}'), { ok: false, refusal: 'I cannot help with that.' })
  t.same(readRecipe(`{"refusal": "${'no '.repeat(1000)}"}`), { ok: false, refusal: 'no '.repeat(1000).trim().slice(0, READ_LIMITS.refusal) })
  t.same(readRecipe('   '), { ok: false, problems: ['reply: is empty'] })
  t.same(readRecipe(null), { ok: false, problems: ['reply: is empty'] })
  t.same(readRecipe('I would rather not.'), { ok: false, problems: ['reply: is not a JSON object'] })
  const invalid = readRecipe('{"title": "No lists", "ingredients": "flour"}')
  t.ok(!invalid.ok && 'problems' in invalid && invalid.problems.some(p => /ingredients/.test(p)), JSON.stringify(invalid))

  const cleaned = recipeOf(readRecipe(JSON.stringify({
    ...RECIPE, title: ' Soup<script>alert(1)</script> ', prepTime: 'PT1H5M', cookTime: '1 hour 30 min', servings: '4 people', tags: ['Quick', ' ']
  })))
  t.match(cleaned, { title: 'Soup', prepTime: 65, cookTime: 90, servings: 4, tags: ['quick'] })
})

t.test('a reply nested or broken too deep to parse is no recipe, never a thrown error', async t => {
  const deep = 200_000
  for (const reply of ['{"a":'.repeat(deep) + '1' + '}'.repeat(deep), '['.repeat(deep) + ']'.repeat(deep), '{'.repeat(deep) + '}'.repeat(deep)]) {
    const read = readRecipe(reply)
    t.equal(read.ok, false, `${reply.slice(0, 12)}...: not a recipe`)
  }
})

t.test('hostile replies: work linear in their size', async t => {
  const size = 64_000
  const [quarter, full] = [size / 4, size].map(hostileReplies)
  for (const [name, reply] of Object.entries(full)) {
    const small = workOf(() => readRecipe(quarter[name]))
    const work = workOf(() => readRecipe(reply))
    const growth = work / small
    t.ok(growth < LINEAR_GROWTH, `${name}: work ${work} for ${reply.length} characters, ${growth.toFixed(2)}x a quarter of it`)
  }
  // The nested braces as filed: 30,000 deep. Parsing from every brace to the end was 16x the work for 4x the braces.
  const braces = (n: number) => '{'.repeat(n) + '}'.repeat(n)
  const growth = workOf(() => readRecipe(braces(30_000))) / workOf(() => readRecipe(braces(7500)))
  t.ok(growth < LINEAR_GROWTH, `30,000 nested braces: ${growth.toFixed(2)}x the work of 7,500`)

  const MB = 1024 * 1024
  const opened = workOf(() => readRecipe('{'.repeat(MB))) / workOf(() => readRecipe('{'.repeat(MB / 4)))
  t.ok(opened < LINEAR_GROWTH, `1 MB of "{": ${opened.toFixed(2)}x the work of 256 kB`)
})

// A reply's lists are cut before their items are looked at: 30,000 ingredient lines (700 kB) cost what twice the
// bound does in a reply of the same length (parsing the JSON is the same either way), and only the bound is kept.
t.test('bounded before normalised: 30,000 ingredients cost what 400 do, and 200 are kept', async t => {
  const huge = recipeReply(30_000)
  const bounded = recipeReply(2 * READ_LIMITS.ingredients)
  const padded = recipeReply(2 * READ_LIMITS.ingredients, { padding: 'x'.repeat(huge.length - bounded.length - ',"padding":""'.length) })
  t.equal(padded.length, huge.length)
  const { result, work } = countWork(() => readRecipe(huge))
  const paddedWork = workOf(() => readRecipe(padded))
  t.ok(work < 1.01 * paddedWork, `work ${work} for 30,000 ingredients against ${paddedWork} for ${2 * READ_LIMITS.ingredients} in as many characters`)
  const recipe = recipeOf(result)
  t.equal(recipe.ingredients.length, READ_LIMITS.ingredients)
  t.match(recipe.ingredients[READ_LIMITS.ingredients - 1], { name: `flour number ${READ_LIMITS.ingredients - 1}`, quantity: READ_LIMITS.ingredients })

  const steps = recipeOf(readRecipe(JSON.stringify({ ...RECIPE, instructions: Array.from({ length: 1000 }, (_, i) => i % 2 === 0 ? ' ' : `Step ${i}.`) })))
  t.equal(steps.instructions.length, READ_LIMITS.instructions, 'blank steps fall out, then the bound is kept')
  t.equal(steps.instructions[0], 'Step 1.')
  const grouped = recipeOf(readRecipe(JSON.stringify({ ...RECIPE, ingredients: ['For the dough:', '500 g flour', 'For the filling:', '2 apples'] })))
  t.match(grouped.ingredients, [{ name: 'flour', group: 'dough' }, { name: 'apples', group: 'filling' }], 'group headers still read')
})

t.test('strings are read up to twice their bound: a longer one costs what that does', async t => {
  const [short, long] = [400, 64_000].map(n => `${'1'.repeat(n)}x`)
  t.equal(workOf(() => toMinutes(long)), workOf(() => toMinutes(short)), 'a duration of 64,000 digits')
  t.equal(toMinutes('1 hour 30 minutes'), 90)
  const wordy = recipeOf(readRecipe(JSON.stringify({ ...RECIPE, title: 'T'.repeat(10_000), ingredients: [`2 cups ${'very '.repeat(2000)}fine flour`] })))
  t.equal(wordy.title.length, 2 * READ_LIMITS.title, 'the service cuts it to the bound')
  t.ok(wordy.ingredients[0].text.length <= 2 * READ_LIMITS.line)
})

t.test('the bounds are the recipe bounds', async t => {
  for (const key of ['title', 'description', 'ingredients', 'instructions', 'tags', 'tagName'] as const) {
    t.equal(READ_LIMITS[key], RECIPE_LIMITS[key], key)
  }
})

t.test('the reply reader: small replies here, large ones on a worker thread, read the same', async t => {
  const reader = createReplyReader()
  t.teardown(reader.close)
  t.same(await reader.read(TEXT), readRecipe(TEXT))
  const large = recipeReply(30_000)
  t.ok(large.length > READ_ON_THREAD_CHARS)
  t.same(await reader.read(large), readRecipe(large), 'a large reply')
  const braces = hostileReplies(64_000)['nested braces']
  t.same(await reader.read(braces), { ok: false, problems: ['reply: is not a JSON object'] })
  t.same(await reader.read(null), { ok: false, problems: ['reply: is empty'] })
})

t.test('a reply missing keys names each one, so the repair prompt tells the model what to add', async t => {
  const read = readRecipe(JSON.stringify({ description: 'Only a description' }))
  t.equal(read.ok, false)
  const problems = read.ok ? [] : 'problems' in read ? read.problems : []
  t.ok(problems.includes('title: is required'), problems.join('; '))
  t.ok(problems.includes('ingredients: is required'), problems.join('; '))
  t.notOk(problems.some(p => p.startsWith('reply: is required')), 'not one line for the whole reply')
})
