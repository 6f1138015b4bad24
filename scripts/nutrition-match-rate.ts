// `node --import tsx scripts/nutrition-match-rate.ts [corpusDir] [--lines]`: how well nutrition matching does on real
// recipes. Reads the ingredient lines of every case of the import corpus (../shared/import-corpus: manifest.json ->
// each case's expected JSON, `ingredients`), parses them as the API stores them (lib/ingredients.ts), matches each to a
// food and converts it to grams (lib/nutrition), and prints: lines, matched %, converted-to-grams %, split by language,
// with the most frequent unmatched names and unconvertible units. `--lines` also prints every line's outcome.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { normalizeIngredients } from '../lib/ingredients.js'
import { ingredientLine, ingredientNutrition } from '../lib/nutrition/ingredient.js'
import { matchFood, nameWords } from '../lib/nutrition/match.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const showLines = args.includes('--lines')
const root = path.resolve(args.find(a => !a.startsWith('--')) ?? path.join(here, '../../shared/import-corpus'))

interface Manifest { cases: Array<{ id: string, expected: string }> }
interface Expected { ingredients?: unknown, language?: unknown }

const manifest: Manifest = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8'))

interface Tally { lines: number, matched: number, synonym: number, converted: number, noQuantity: number, unitUnknown: number }
const tally = (): Tally => ({ lines: 0, matched: 0, synonym: 0, converted: 0, noQuantity: 0, unitUnknown: 0 })
const groups = { all: tally(), english: tally(), other: tally() }
const unmatched = new Map<string, number>()
const unconverted = new Map<string, number>()
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

const started = performance.now()
for (const c of manifest.cases) {
  const expected: Expected = JSON.parse(readFileSync(path.join(root, c.expected), 'utf8'))
  const lines = Array.isArray(expected.ingredients) ? expected.ingredients.filter((l): l is string => typeof l === 'string' && l.trim() !== '') : []
  const english = typeof expected.language === 'string' && expected.language.toLowerCase().startsWith('en')
  // Stored as the API stores a submitted list (lib/ingredients.ts), then read back as the service reads it.
  for (const stored of normalizeIngredients(lines)) {
    const line = ingredientLine(stored)
    if (line == null) continue
    const text = line.text
    const result = ingredientNutrition(line)
    for (const t of [groups.all, english ? groups.english : groups.other]) {
      t.lines++
      if (result.matched != null) t.matched++
      if (result.matched != null && matchFood(line.name)?.via === 'synonym') t.synonym++
      if (result.status === 'ok') t.converted++
      if (result.status === 'no-quantity') t.noQuantity++
      if (result.status === 'unit-unknown') t.unitUnknown++
    }
    if (result.matched == null) bump(unmatched, nameWords(line.name).join(' ') || line.name)
    if (result.status === 'unit-unknown') bump(unconverted, `${line.unit ?? '(count)'} ${nameWords(line.name).join(' ')}`)
    if (showLines) {
      const grams = result.grams == null ? '-' : `${Math.round(result.grams)} g`
      console.log(`${result.status.padEnd(12)} ${grams.padStart(7)}  ${text}  ->  ${result.matched?.description ?? '?'}`)
    }
  }
}
const elapsed = performance.now() - started

const pct = (n: number, of: number) => of === 0 ? '-' : `${(100 * n / of).toFixed(1)}%`
console.log(`Import corpus: ${manifest.cases.length} recipes (${root})`)
console.log('group      lines  matched  by-synonym  converted-to-grams  no-quantity  unit-unknown')
for (const [name, t] of Object.entries(groups)) {
  console.log(`${name.padEnd(9)} ${String(t.lines).padStart(6)}  ${pct(t.matched, t.lines).padStart(7)}  ${pct(t.synonym, t.lines).padStart(10)}  ${pct(t.converted, t.lines).padStart(18)}  ${pct(t.noQuantity, t.lines).padStart(11)}  ${pct(t.unitUnknown, t.lines).padStart(12)}`)
}
console.log('by-synonym: matched through the synonym list (the rest through the word index); converted-to-grams: matched and ' +
  'weighed (status ok, what the totals count); no-quantity: "salt to taste"; unit-unknown: a unit the food has no weight for')
const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 25).map(([k, n]) => `${k} (${n})`).join(', ')
console.log(`Top unmatched names: ${top(unmatched) || 'none'}`)
console.log(`Top unconverted (unit, name): ${top(unconverted) || 'none'}`)
console.log(`${groups.all.lines} lines in ${elapsed.toFixed(0)} ms (index built on first use)`)
