// The ceilings the service is compared with, each a bare Fastify server in its own process (started by run.ts):
//   `hello`: GET / -> { hello: 'world' }: what Fastify alone serves on this Node.
//   `db`:    postgres.js with the service's pool size and column transform, one query per request, nothing else:
//     GET /list        12 listed recipes (published, public, moderation approved or pending), newest first, with author
//     GET /search?q=   the same, where lower(title) like '%q%'
//     GET /pk/:id      a user row by primary key
//     GET /detail/:id  a listed recipe by primary key with its author and tags (the service's detail columns)
//     GET /bcrypt      bcrypt compare (cost 12, the service's library) of the bench password: the login ceiling
//     POST /extract    { html, url }: the service's recipe extractor (lib/recipe-import) on the event loop, answering
//                      the preview: the import ceiling
//     and the households' reads and write, each one statement with the service's access rules (bench/households.ts):
//     GET /mealplan/:id      a meal plan the reader may see, its owner and its planned meals with their recipe summaries
//     GET /planned?from=&to= the reader's planned meals (calendar and visible plans) within the dates, with the total
//     GET /grocery/:id       a grocery list the reader sees, its counts and its items in aisle order, each with the
//                            recipes it came from that the reader may see
//     POST /from-plan        { mealPlanId, userId }: read the plan's visible recipes, merge their ingredients with the
//                            service's own functions (lib/grocery.ts), insert the list and its items in one statement
//   `media`: the uploads family's work without the service around it:
//     GET /file/:userId/:fileName   a stored file read with fs.readFile from the service's upload directory
//                                   (CEILING_FILES_DIR, the same files) and sent as image/webp
//     POST /sharp                   the raw image (image/jpeg body) through the service's sharp pipeline (lib/images.ts:
//                                   metadata, rotate, resize inside 2048 px, WebP quality 82), answering the output size
// Usage: node --import tsx bench/ceiling.ts hello|db|media   (CEILING_PORT, CEILING_DATABASE_URL, BENCH_PASSWORD, CEILING_FILES_DIR)
// The bench runs it bundled, on plain node (servers.ts, bundleCeiling).
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import bcrypt from 'bcrypt'
import Fastify from 'fastify'
import postgres from 'postgres'
import sharp from 'sharp'
import { AISLES, mergeIngredients, servingsFactor } from '../lib/grocery.js'
import { IMAGE_LIMITS } from '../lib/images.js'
import { normalizeIngredients } from '../lib/ingredients.js'
import { extractRecipe } from '../lib/recipe-import/extract/index.js'
import { CEILING_LIST_NAME } from './households.js'
import { READER_ID } from './seed.js'

const mode = process.argv[2]
const port = Number(process.env.CEILING_PORT ?? 0)
const app = Fastify({ logger: false })

if (mode === 'hello') {
  app.get('/', async () => ({ hello: 'world' }))
} else if (mode === 'db') {
  const sql = postgres(process.env.CEILING_DATABASE_URL!, {
    max: 10,
    onnotice: () => {},
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    connection: { application_name: 'bench-ceiling', TimeZone: 'UTC' }
  })
  const password = process.env.BENCH_PASSWORD!
  const [{ hash }] = await sql<Array<{ hash: string }>>`select password as hash from users where id = 'reader'`

  // About what the service's recipe view selects (recipe-rows.ts), without the viewer's own flags.
  const columns = sql`
    r.id, r.slug, r.title, r.description, r.type, r.difficulty, r.visibility, r.published, r.moderation_status,
    r.cuisine, r.prep_time, r.cook_time, r.total_time, r.servings, r.ingredients, r.instructions, r.nutrition,
    r.image_url, r.source_url, r.like_count, r.comment_count, r.rating_count, r.rating_sum, r.created_at, r.updated_at,
    a.id as author_id, a.username as author_username, a.first_name as author_first_name,
    a.last_name as author_last_name, a.avatar_url as author_avatar_url,
    coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by t.name)
      from recipe_tags rt join tags t on t.id = rt.tag_id where rt.recipe_id = r.id), '[]') as tags`
  const listed = sql`r.published and r.visibility = 'public' and r.moderation_status in ('approved', 'pending')`

  app.get('/list', async () => ({
    recipes: await sql`select ${columns} from recipes r join users a on a.id = r.author_id
      where ${listed} order by r.created_at desc, r.id desc limit 12`
  }))
  app.get<{ Querystring: { q?: string } }>('/search', async request => {
    const pattern = `%${(request.query.q ?? '').toLowerCase().replace(/[\\%_]/g, '\\$&')}%`
    return {
      recipes: await sql`select ${columns} from recipes r join users a on a.id = r.author_id
        where ${listed} and lower(r.title) like ${pattern} order by r.created_at desc, r.id desc limit 12`
    }
  })
  app.get<{ Params: { id: string } }>('/pk/:id', async (request, reply) => {
    const [user] = await sql`select id, email, username, first_name, last_name, bio, location, avatar_url, verified,
      plan_id, created_at, updated_at from users where id = ${request.params.id}`
    if (user == null) return await reply.code(404).send({ error: 'not found' })
    return { user }
  })
  app.get<{ Params: { id: string } }>('/detail/:id', async (request, reply) => {
    const [recipe] = await sql`select ${columns} from recipes r join users a on a.id = r.author_id
      where r.id = ${request.params.id} and ${listed}`
    if (recipe == null) return await reply.code(404).send({ error: 'not found' })
    return { recipe }
  })
  app.get('/bcrypt', async () => ({ ok: await bcrypt.compare(password, hash) }))
  app.post<{ Body: { html: string, url: string } }>('/extract', async request => ({ preview: extractRecipe(request.body.html, request.body.url) }))

  // Households, as the reader (from-plan: as the user named in the body). The same access rules as the service
  // (plugins/app/repositories/household-access.ts, visibility.ts), written out once here.
  const viewer = READER_ID
  const familiesOf = (user: string) => sql`(select fm.family_id from family_members fm where fm.user_id = ${user})`
  const planVisibleTo = (user: string) => sql`(mp.user_id = ${user} or exists (select 1 from shared_meal_plans s
    where s.meal_plan_id = mp.id and (s.user_id = ${user} or s.family_id in ${familiesOf(user)})))`
  const recipeVisibleTo = (user: string) => sql`(r.author_id = ${user} or (r.published and r.moderation_status in ('approved', 'pending') and not r.author_hidden and (
    r.visibility = 'public'
    or (r.visibility = 'friends'
      and exists (select 1 from follows fa where fa.follower_id = ${user} and fa.following_id = r.author_id)
      and exists (select 1 from follows fb where fb.follower_id = r.author_id and fb.following_id = ${user}))
    or (r.visibility = 'custom' and exists (select 1 from recipe_audience ra where ra.recipe_id = r.id and ra.user_id = ${user})))))`
  const mealJson = sql`json_build_object('id', pm.id, 'mealPlanId', pm.meal_plan_id, 'userId', pm.user_id, 'date', pm.date,
    'mealType', pm.meal_type, 'recipeId', pm.recipe_id,
    'recipe', case when r.id is null then null else json_build_object('id', r.id, 'title', r.title, 'imageUrl', r.image_url,
      'servings', r.servings, 'prepTime', r.prep_time, 'cookTime', r.cook_time) end,
    'customTitle', pm.custom_title, 'servings', pm.servings, 'notes', pm.notes, 'createdAt', pm.created_at, 'updatedAt', pm.updated_at)`
  const mealOrder = sql`pm.date, array_position(array['breakfast', 'lunch', 'dinner', 'snack', 'dessert'], pm.meal_type), pm.created_at, pm.id`

  app.get<{ Params: { id: string } }>('/mealplan/:id', async (request, reply) => {
    const [mealPlan] = await sql`select mp.id, mp.name, mp.description, mp.start_date::text as start_date, mp.end_date::text as end_date,
        mp.created_at, mp.updated_at,
        json_build_object('id', o.id, 'username', o.username, 'firstName', o.first_name, 'lastName', o.last_name, 'avatarUrl', o.avatar_url) as owner,
        case when mp.user_id = ${viewer} then 'owner' when exists (select 1 from shared_meal_plans s where s.meal_plan_id = mp.id
          and s.permission = 'edit' and (s.user_id = ${viewer} or s.family_id in ${familiesOf(viewer)})) then 'edit' else 'view' end as access,
        m.planned_meal_count, m.planned_meals
      from meal_plans mp join users o on o.id = mp.user_id
      cross join lateral (select count(*)::int as planned_meal_count, coalesce(json_agg(${mealJson} order by ${mealOrder}), '[]') as planned_meals
        from planned_meals pm left join recipes r on r.id = pm.recipe_id and ${recipeVisibleTo(viewer)}
        where pm.meal_plan_id = mp.id) m
      where mp.id = ${request.params.id} and ${planVisibleTo(viewer)}`
    if (mealPlan == null) return await reply.code(404).send({ error: 'not found' })
    return { mealPlan }
  })
  app.get<{ Querystring: { from: string, to: string } }>('/planned', async request => {
    const rows = await sql<Array<{ meal: unknown, total: number }>>`select ${mealJson} as meal, (count(*) over ())::int as total
      from planned_meals pm left join recipes r on r.id = pm.recipe_id and ${recipeVisibleTo(viewer)}
      where pm.date between ${request.query.from}::date and ${request.query.to}::date
        and ((pm.user_id = ${viewer} and pm.meal_plan_id is null) or pm.meal_plan_id in (
          select p.id from meal_plans p where p.user_id = ${viewer}
          union
          select s.meal_plan_id from shared_meal_plans s where s.user_id = ${viewer} or s.family_id in ${familiesOf(viewer)}))
      order by ${mealOrder} limit 50`
    return { plannedMeals: rows.map(row => row.meal), pagination: { page: 1, limit: 50, total: rows[0]?.total ?? 0 } }
  })
  // Each item names the recipes it came from that the reader may see, in plan order (the service's answer since 00a37ce).
  const itemsJson = sql`coalesce(json_agg(json_build_object('id', gi.id, 'name', gi.name, 'quantity', gi.quantity,
      'unit', gi.unit, 'category', gi.category, 'checked', gi.checked, 'note', gi.note, 'position', gi.position,
      'recipes', coalesce((select json_agg(json_build_object('id', r.id, 'title', r.title, 'slug', r.slug) order by s.n)
        from unnest(gi.source_recipe_ids) with ordinality as s(id, n) join recipes r on r.id = s.id where ${recipeVisibleTo(viewer)}), '[]'),
      'createdAt', gi.created_at, 'updatedAt', gi.updated_at)
    order by coalesce(array_position(${[...AISLES]}::text[], gi.category), ${AISLES.length}), gi.position, gi.created_at, gi.id), '[]')`
  app.get<{ Params: { id: string } }>('/grocery/:id', async (request, reply) => {
    const [list] = await sql<Array<{ userId: string }>>`select gl.id, gl.name, gl.user_id, gl.family_id, gl.meal_plan_id, gl.created_at,
        gl.updated_at, i.item_count, i.checked_count, i.items
      from grocery_lists gl
      cross join lateral (select count(*)::int as item_count, (count(*) filter (where gi.checked))::int as checked_count, ${itemsJson} as items
        from grocery_items gi where gi.list_id = gl.id) i
      where gl.id = ${request.params.id} and (gl.user_id = ${viewer} or gl.family_id in ${familiesOf(viewer)})`
    if (list == null) return await reply.code(404).send({ error: 'not found' })
    return { groceryList: { ...list, isOwner: list.userId === viewer } }
  })
  interface PlannedRecipe { plannedServings: number | null, recipeServings: number | null, ingredients: unknown }
  app.post<{ Body: { mealPlanId: string, userId: string } }>('/from-plan', async (request, reply) => {
    const { mealPlanId, userId } = request.body
    const [plan] = await sql<Array<{ id: string, recipes: PlannedRecipe[] }>>`select mp.id,
        coalesce(json_agg(json_build_object('plannedServings', pm.servings, 'recipeServings', r.servings, 'ingredients', r.ingredients)
          order by pm.date, pm.created_at, pm.id) filter (where r.id is not null), '[]') as recipes
      from meal_plans mp
      left join planned_meals pm on pm.meal_plan_id = mp.id
      left join recipes r on r.id = pm.recipe_id and ${recipeVisibleTo(userId)}
      where mp.id = ${mealPlanId} and ${planVisibleTo(userId)}
      group by mp.id`
    if (plan == null) return await reply.code(404).send({ error: 'not found' })
    const lines = mergeIngredients(plan.recipes.flatMap(recipe => {
      const factor = servingsFactor(recipe.plannedServings, recipe.recipeServings)
      return (Array.isArray(recipe.ingredients) ? normalizeIngredients(recipe.ingredients) : []).map(ingredient => ({ ingredient, factor }))
    })).map((line, position) => ({ ...line, position }))
    // Ids from the database (the service makes cuid2 ids in JavaScript).
    const [list] = await sql<Array<{ userId: string, items: unknown[] }>>`
      with list as (
        insert into grocery_lists (id, user_id, name, meal_plan_id) values (gen_random_uuid()::text, ${userId}, ${CEILING_LIST_NAME}, ${plan.id})
        returning id, user_id, name, family_id, meal_plan_id, created_at, updated_at),
      gi as (
        insert into grocery_items (id, list_id, name, quantity, unit, category, checked, note, position)
        select gen_random_uuid()::text, list.id, x.name, x.quantity, x.unit, x.category, false, x.note, x.position
        from list, json_to_recordset(${sql.json(lines)}::json) as x(name text, quantity float8, unit text, category text, note text, position int)
        returning *)
      select list.*, (select ${itemsJson} from gi) as items from list`
    return await reply.code(201).send({ groceryList: { ...list, isOwner: list.userId === userId, itemCount: list.items.length, checkedCount: 0 } })
  })
  app.addHook('onClose', async () => { await sql.end({ timeout: 5 }) })
} else if (mode === 'media') {
  const dir = process.env.CEILING_FILES_DIR!
  app.get('/', async () => ({ ok: true }))
  // The service's own bounds on names (schemas/media.ts StoredFileParams), so no request leaves the directory.
  const name = /^[A-Za-z0-9_-]{1,64}$/
  app.get<{ Params: { userId: string, fileName: string } }>('/file/:userId/:fileName', async (request, reply) => {
    const { userId, fileName } = request.params
    if (!name.test(userId) || !fileName.endsWith('.webp') || !name.test(fileName.slice(0, -5))) return await reply.code(404).send({ error: 'not found' })
    const data = await readFile(path.join(dir, userId, fileName)).catch(() => null)
    if (data == null) return await reply.code(404).send({ error: 'not found' })
    return await reply.type('image/webp').send(data)
  })
  // The options and steps of processImage (lib/images.ts), variant `image`.
  const options = { failOn: 'truncated', limitInputPixels: IMAGE_LIMITS.pixels, pages: 1 } as const
  app.addContentTypeParser('image/jpeg', { parseAs: 'buffer', bodyLimit: IMAGE_LIMITS.bytes }, (_request, body, done) => { done(null, body) })
  app.post<{ Body: Buffer }>('/sharp', async request => {
    const { width, height } = await sharp(request.body, options).metadata()
    if (width == null || height == null) throw new Error('not an image')
    const { data, info } = await sharp(request.body, options).rotate()
      .resize(IMAGE_LIMITS.side, IMAGE_LIMITS.side, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true })
    return { width: info.width, height: info.height, size: data.length }
  })
} else {
  console.error('usage: ceiling.ts hello|db|media')
  process.exit(2)
}

await app.listen({ port, host: '127.0.0.1' })
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}
