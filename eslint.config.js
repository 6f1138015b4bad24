import neostandard from 'neostandard'

const sqlLiteralRow = {
  selector: 'TaggedTemplateExpression > TSTypeParameterInstantiation TSTypeLiteral',
  message: "SQL rows are typed from the schema, not an object literal: Pick<typeof table.$inferSelect, 'a' | 'b'>, (typeof table.$inferSelect)['col'], a view type from schemas/*.ts, or Counted/Flagged from repositories/sql.ts."
}
const keyword = 'TSStringKeyword, TSNumberKeyword, TSBooleanKeyword, TSTypeReference[typeName.name="Date"]'
const rowMember = ':matches(TSInterfaceDeclaration, TSTypeAliasDeclaration)[id.name=/Rows?$/] TSPropertySignature > TSTypeAnnotation'
const handWrittenRow = [`${rowMember} > :matches(${keyword})`, `${rowMember} > :matches(TSUnionType, TSArrayType) > :matches(${keyword})`].map(selector => ({
  selector,
  message: "A *Row type takes its columns' types from the schema: (typeof table.$inferSelect)['col'], a view type's member from schemas/*.ts, or Counted/Flagged from repositories/sql.ts, not a bare string/number/boolean/Date (or a union or array of one)."
}))

// The measured statements' techniques (reused parts, hidden values, quick commits, raw-byte rows) live in
// plugins/app/repositories/hot/ and nothing else uses them: everything else writes plain typed SQL (hot/README.md).
const hotOnly = {
  rules: {
    'no-raw-rows': {
      meta: { type: 'problem', schema: [], messages: { raw: 'Rows read as raw bytes (postgres.js `.raw()`) belong in plugins/app/repositories/hot/ (see its README.md).' } },
      create: context => ({
        'CallExpression[arguments.length=0][callee.type="MemberExpression"][callee.property.name="raw"]': node => context.report({ node, messageId: 'raw' })
      })
    }
  }
}

export default [
  ...neostandard({ ts: true, ignores: ['examples/generated/**', 'dist/**', 'data/**', 'coverage/**', '.tap/**', 'db/migrations/**'] }),
  // SQL row types come from the schema, so a renamed or retyped column fails tsc (docs/architecture.md, "Data
  // access"). The hot folder is exempt. Two objects because a later no-restricted-syntax replaces an earlier one.
  {
    files: ['plugins/**/*.ts', 'routes/**/*.ts', 'lib/**/*.ts'],
    ignores: ['plugins/app/repositories/**'],
    rules: { 'no-restricted-syntax': ['error', sqlLiteralRow] }
  },
  {
    files: ['plugins/app/repositories/**/*.ts'],
    ignores: ['plugins/app/repositories/hot/**'],
    rules: { 'no-restricted-syntax': ['error', sqlLiteralRow, ...handWrittenRow] }
  },
  // Only the measured statements (plugins/app/repositories/hot/) use the techniques of hot/sql.ts and hot/bytes-row.ts;
  // tests exercise them directly.
  {
    files: ['**/*.ts'],
    ignores: ['plugins/app/repositories/hot/**', 'test/**'],
    plugins: { 'hot-only': hotOnly },
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '(^|/)hot/(sql|bytes-row)\\.js$',
          message: 'reusedPart, hiddenValue, quickCommit and bytesRow are for the measured statements in plugins/app/repositories/hot/ only: write plain typed SQL, or call a hot statement (hot/README.md).'
        }]
      }],
      'hot-only/no-raw-rows': 'error'
    }
  }
]
