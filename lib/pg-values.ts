// Values read through the shared postgres.js client, whose parsers Drizzle's driver replaces: timestamps arrive as
// PostgreSQL text ("2026-11-22 03:52:30.266+00") and json columns may arrive as text. Raw queries convert here.

export function toDate (value: Date | string): Date {
  if (value instanceof Date) return value
  // "YYYY-MM-DD HH:MM:SS[.fff]+HH[:MM]" -> ISO 8601.
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))
}

export const toIso = (value: Date | string): string => toDate(value).toISOString()

/** A json/jsonb column's value, parsed if it came as text. */
export function jsonValue<T = unknown> (value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}
