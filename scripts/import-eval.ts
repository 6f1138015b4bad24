// `node --import tsx scripts/import-eval.ts [--without-structured-data] [corpusDir] [out.jsonl]` (npm run import:eval):
// runs the web-page recipe extractor (lib/recipe-import/extract) over every case of the import corpus (default
// ../shared/import-corpus, next to the repository) and writes one prediction a line (default
// $TMPDIR/import-eval.jsonl) in the format of the corpus's score.py:
//   { id, title, ingredients: [text], instructions_list: [text], total_time, yields, image }
// then prints how to score them. The extractor never sees the expected answers. With --without-structured-data every
// page loses its JSON-LD and microdata first (scripts/without-structured-data.ts), so the heuristics read all of them:
// the titles then often differ (a headline is not the recipe's name), the ingredients and steps should not.
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractRecipe } from '../lib/recipe-import/extract/index.js'
import { withoutStructuredData } from './without-structured-data.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const stripped = process.argv.includes('--without-structured-data')
const args = process.argv.slice(2).filter(arg => arg !== '--without-structured-data')
const root = path.resolve(args[0] ?? path.join(here, '../../shared/import-corpus'))
const outFile = path.resolve(args[1] ?? path.join(tmpdir(), 'import-eval.jsonl'))

interface Manifest { cases: Array<{ id: string, html: string, url: string, structured?: string }> }

const manifest: Manifest = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8'))
const lines: string[] = []
let slowest = { id: '', ms: 0 }
const started = performance.now()
for (const c of manifest.cases) {
  const page = readFileSync(path.join(root, c.html), 'utf8')
  const html = stripped ? withoutStructuredData(page) : page
  const t0 = performance.now()
  let prediction: Record<string, unknown>
  try {
    const recipe = extractRecipe(html, c.url)
    prediction = recipe == null
      ? { id: c.id, error: 'no recipe found' }
      : {
          id: c.id,
          title: recipe.title,
          ingredients: recipe.ingredients.map(i => i.text),
          instructions_list: recipe.instructions.map(s => s.text),
          total_time: recipe.totalTime,
          yields: recipe.yields,
          image: recipe.imageUrl
        }
  } catch (err) {
    prediction = { id: c.id, error: err instanceof Error ? err.message : String(err) }
  }
  const ms = performance.now() - t0
  if (ms > slowest.ms) slowest = { id: c.id, ms }
  lines.push(JSON.stringify(prediction))
}
writeFileSync(outFile, lines.join('\n') + '\n')
const total = performance.now() - started
console.log(`${manifest.cases.length} cases -> ${outFile} in ${Math.round(total)} ms (slowest ${slowest.id}: ${Math.round(slowest.ms)} ms)`)
console.log(`score: python3 ${path.join(root, 'score.py')} ${outFile} --manifest ${path.join(root, 'manifest.json')} --fails 40`)
