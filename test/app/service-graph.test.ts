// Services call each other through Fastify decorators (`fastify.recipeService`), which the import-based layer rules
// (dependency-cruiser) cannot see. This test reads the decorator graph from the sources instead: every service another
// one uses is among that plugin's declared `dependencies` (so Fastify loads it first and says so if it is missing),
// and the graph has no cycle (no service reaches back into one that uses it).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import t from 'tap'

const SERVICES = path.resolve(import.meta.dirname, '../../plugins/app/services')

interface Module { file: string, plugin: string | null, decorates: string[], dependencies: string[], uses: Set<string>, imports: string[] }

function read (file: string): Module {
  const text = readFileSync(path.join(SERVICES, file), 'utf8')
  const plugin = /\bname: '([\w-]+-service)'/.exec(text)?.[1] ?? null
  const decorates = [...text.matchAll(/fastify\.decorate\('(\w+Service)'/g)].map(m => m[1])
  const dependencies = [...(/dependencies: \[([^\]]*)\]/.exec(text)?.[1] ?? '').matchAll(/'([\w-]+)'/g)].map(m => m[1])
  const uses = new Set([...text.matchAll(/fastify\.(\w+Service)\b/g)].map(m => m[1]).filter(name => !decorates.includes(name)))
  const imports = [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map(m => `${m[1]}.ts`)
  return { file, plugin, decorates, dependencies, uses, imports }
}

const modules = readdirSync(SERVICES).filter(f => f.endsWith('.ts')).map(read)
const byDecorator = new Map(modules.flatMap(m => m.decorates.map(d => [d, m] as const)))

// A helper module that is no plugin (import-image.ts) acts for the plugins that import it.
for (const helper of modules.filter(m => m.plugin == null)) {
  for (const user of modules.filter(m => m.plugin != null && m.imports.includes(helper.file))) {
    for (const used of helper.uses) user.uses.add(used)
  }
}
const plugins = modules.filter(m => m.plugin != null)

t.test('every service a service uses is among its declared dependencies', async t => {
  t.ok(plugins.length >= 40, `${plugins.length} service plugins read`)
  let edges = 0
  for (const m of plugins) {
    for (const used of m.uses) {
      const target = byDecorator.get(used)
      t.ok(target?.plugin != null, `${m.file}: fastify.${used} is decorated by a service plugin`)
      if (target?.plugin == null) continue
      edges++
      t.ok(m.dependencies.includes(target.plugin), `${m.file} (${m.plugin}) declares '${target.plugin}' (it uses fastify.${used})`)
    }
  }
  t.ok(edges >= 30, `${edges} calls between services`)
})

t.test('the services call each other without a cycle', async t => {
  const next = new Map(plugins.map(m => [m.plugin!, [...m.uses].map(u => byDecorator.get(u)?.plugin).filter((p): p is string => p != null)]))
  const state = new Map<string, 'open' | 'done'>()
  const cycles: string[] = []
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return
    if (state.get(node) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '))
      return
    }
    state.set(node, 'open')
    for (const target of next.get(node) ?? []) visit(target, [...trail, node])
    state.set(node, 'done')
  }
  for (const node of next.keys()) visit(node, [])
  t.same(cycles, [], 'no service reaches back into one that uses it')
})
