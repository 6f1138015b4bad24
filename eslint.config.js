import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['examples/generated/**', 'dist/**', 'data/**', 'coverage/**', '.tap/**', 'db/migrations/**'] })
]
