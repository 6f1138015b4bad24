// API shapes that mirror a table take its columns from the Drizzle table (db/schema), never from a second list:
// `tableColumns(table)` is each column's schema as the JSON wire writes it, and shapes `pick` the columns they show.
import { getTableColumns, type Column, type Table } from 'drizzle-orm'
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core'
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox'
import { DateTime, Id, Nullable } from './common.js'

/** A value of the column as JSON carries it: timestamps become ISO strings, numbers stay numbers, JSON stays free. */
type WireValue<C extends Column> =
  C['_']['dataType'] extends 'number' ? number
    : C['_']['dataType'] extends 'boolean' ? boolean
      : C['_']['dataType'] extends 'string' | 'date' ? string
        : C['_']['dataType'] extends 'array' ? (C['_']['data'] extends Array<infer E> ? Array<E extends Date ? string : E> : unknown[])
          : unknown

/** The schema of one column: its wire value, or null too when the column is nullable. */
export type ColumnSchema<C extends Column> = TUnsafe<WireValue<C> | (C['_']['notNull'] extends true ? never : null)>
export type TableColumns<T extends Table> = { [K in keyof T['_']['columns']]: ColumnSchema<T['_']['columns'][K]> }

export const LocalDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' })
export const Json = Type.Unknown({ description: 'As stored (free JSON)' })

/** Generated ids (`id()` of db/schema/columns.ts) and the columns that reference one are the API's opaque ids. */
function idColumns (table: PgTable): Set<PgColumn> {
  const ids = new Set<PgColumn>(Object.values(getTableColumns(table)).filter(c => c.primary && c.defaultFn != null))
  for (const fk of getTableConfig(table).foreignKeys) {
    const { columns, foreignColumns } = fk.reference()
    columns.forEach((column, i) => {
      const target = foreignColumns[i]
      if (target != null && target.primary && target.defaultFn != null) ids.add(column)
    })
  }
  return ids
}

function wire (column: PgColumn, isId: boolean): TSchema {
  switch (column.columnType) {
    case 'PgText': return isId ? Id : Type.String()
    case 'PgTimestamp': return DateTime
    case 'PgDateString': return LocalDate
    case 'PgInteger': case 'PgSmallInt': case 'PgBigInt53': return Type.Integer()
    case 'PgDoublePrecision': return Type.Number()
    case 'PgBoolean': return Type.Boolean()
    case 'PgJsonb': return Json
    case 'PgArray': return Type.Array(wire((column as PgColumn & { baseColumn: PgColumn }).baseColumn, false))
    default: throw new Error(`tableColumns: no wire schema for ${column.columnType} (${column.name})`)
  }
}

/** Every column of `table` as its API schema, by the column's key. */
export function tableColumns<T extends PgTable> (table: T): TableColumns<T> {
  const ids = idColumns(table)
  const entries = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const schema = wire(column, ids.has(column))
    // Free JSON already admits null.
    return [key, column.notNull || column.columnType === 'PgJsonb' ? schema : Nullable(schema)]
  })
  return Object.fromEntries(entries) as TableColumns<T>
}

/**
 * What a shape may put in place of a column's schema: a description (added to it), or a schema whose values the
 * column can hold (an enum of its strings, bounds on its numbers, the structure of its JSON); it keeps the column's
 * null when the column has one.
 */
type Refinement<S extends TSchema, R> = R extends string ? string
  : R extends TSchema
    ? Static<R> extends Static<S>
      ? unknown extends Static<S> ? R : null extends Static<S> ? (null extends Static<R> ? R : never) : R
      : never
    : never
type Refined<S extends TSchema, R> = R extends string ? S : R extends TSchema ? R : S

/** A copy of `schema` (its TypeBox markers too) with `description`. */
const withDescription = (schema: TSchema, description: string): TSchema => Object.defineProperties({}, {
  ...Object.getOwnPropertyDescriptors(schema),
  description: { value: description, enumerable: true, writable: true, configurable: true }
})

/**
 * The schemas of `keys`, in that order (the order JSON is written in), each refined when `refine` names it. Shapes
 * spread the result into `Type.Object`, next to the fields that are not columns.
 */
export function pick<C extends Record<string, TSchema>, const K extends keyof C & string, const R extends { [P in K]?: unknown } = {}> (
  columns: C,
  keys: readonly K[],
  refine?: R & { [P in keyof R]: P extends K ? Refinement<C[P], R[P]> : never }
): { [P in K]: P extends keyof R ? Refined<C[P], R[P]> : C[P] } {
  const refinements = (refine ?? {}) as Record<string, unknown>
  const picked = keys.map(key => {
    const refinement = refinements[key]
    if (refinement == null) return [key, columns[key]]
    return [key, typeof refinement === 'string' ? withDescription(columns[key], refinement) : refinement]
  })
  return Object.fromEntries(picked) as { [P in K]: P extends keyof R ? Refined<C[P], R[P]> : C[P] }
}
