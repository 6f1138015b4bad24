// The ceilings the service is compared with, each a bare Fastify server in its own process (started by run.ts):
//   `hello`: GET / -> { hello: 'world' }: what Fastify alone serves on this Node.
//   `db`:    postgres.js with the service's pool size and column transform, one query per request, nothing else:
//     GET /list        12 listed recipes (published, public, moderation approved or pending), newest first, with author
//     GET /search?q=   the same, where lower(title) like '%q%'
//     GET /pk/:id      a user row by primary key
//     GET /bcrypt      bcrypt compare (cost 12, the service's library) of the bench password: the login ceiling
//   `media`: the uploads family's work without the service around it:
//     GET /file/:userId/:fileName   a stored file read with fs.readFile from the service's upload directory
//                                   (CEILING_FILES_DIR, the same files) and sent as image/webp
//     POST /sharp                   the raw image (image/jpeg body) through the service's sharp pipeline (lib/images.ts:
//                                   metadata, rotate, resize inside 2048 px, WebP quality 82), answering the output size
// Usage: node --import tsx bench/ceiling.ts hello|db|media   (CEILING_PORT, CEILING_DATABASE_URL, BENCH_PASSWORD, CEILING_FILES_DIR)
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import bcrypt from 'bcrypt'
import Fastify from 'fastify'
import postgres from 'postgres'
import sharp from 'sharp'
import { IMAGE_LIMITS } from '../lib/images.js'

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
  app.get('/bcrypt', async () => ({ ok: await bcrypt.compare(password, hash) }))
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
