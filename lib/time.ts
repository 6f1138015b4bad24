// Drizzle's postgres.js driver makes the shared client return timestamps as PostgreSQL text
// ("2026-11-22 03:52:30.266+00"); raw queries on it convert here.

export function toDate (value: Date | string): Date {
  if (value instanceof Date) return value
  // "YYYY-MM-DD HH:MM:SS[.fff]+HH[:MM]" -> ISO 8601.
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'))
}

export const toIso = (value: Date | string): string => toDate(value).toISOString()
