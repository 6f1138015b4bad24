// Hostile model replies for lib/ai/recipe-output.ts, shared by test/lib/ai-recipe-output.test.ts (work counted),
// test/routes/api/ai-recipes/hostile-replies.test.ts (through the API) and `npm run bench:hostile-input` (timed).
// Each of the first ones once cost time quadratic in its size: a reply of 30,000 nested braces (60 kB) held the event
// loop 11.5 s, a duration of 20,000 digits half a second.

const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/** A recipe reply (the JSON text a model sends) with `count` ingredient lines. */
export const recipeReply = (count: number, extra: Record<string, unknown> = {}): string => JSON.stringify({
  title: 'Big Batch Bread',
  ingredients: Array.from({ length: count }, (_, i) => `${i + 1} g flour number ${i}`),
  instructions: ['Mix everything.', 'Bake for an hour.'],
  ...extra
})

/** Replies of `size` characters that are no usable recipe, or whose parts are hostile. */
export function hostileReplies (size: number): Record<string, string> {
  const half = Math.floor(size / 2)
  const depth = Math.floor(size / 6)
  return {
    'nested braces': '{'.repeat(half) + '}'.repeat(half),
    'braces never closed': '{'.repeat(size),
    'braces closing at once': fill('{x}', size),
    'objects never closed': fill('{ "a": 1, ', size),
    'quotes and backslashes': `{${fill('"\\', size - 1)}`,
    'escaped quotes in a string': `{"title": "${fill('\\"', size - 14)}"`,
    'deeply nested JSON': '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    'deeply nested arrays': `${'['.repeat(half)}${']'.repeat(half)}`,
    'a fence never closed': `\`\`\`${' '.repeat(size - 3)}`,
    'a fence with a long language word': `\`\`\`${fill('json', size - 3)}`,
    'many fences': fill('```\n{x}\n```', size),
    'prose with braces': fill('Use {a} pan, then {the} lid {', size),
    'a long duration': recipeReply(1, { prepTime: `${fill('1', size - 120)}x` }),
    'a long ingredient line': recipeReply(0, { ingredients: [`1 cup ${fill('(very) ', size - 120)}`] })
  }
}
