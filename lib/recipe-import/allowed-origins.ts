// IMPORT_ALLOW_ORIGINS, the test setting that lets the recipe import reach local servers (decisions.md "URL safety"):
// exact origins. A URL of a named origin may use that origin's port and reach loopback addresses; nothing else is
// relaxed, not another port of the same host, not a redirect elsewhere, not a request of a page rendered from there.

/** The origin an entry names (`http://127.0.0.1:4567`, one trailing slash allowed), or null when it is not exactly one. */
export function exactOrigin (entry: string): string | null {
  // No path, query, fragment, credentials or wildcard: an entry that looks wider than one origin is refused, not narrowed.
  if (!/^https?:\/\/[^/?#@\s*\\]+\/?$/i.test(entry)) return null
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    return null
  }
  return url.hostname === '' ? null : url.origin
}

/** The allowed origins as a set of `URL.origin` strings (entries that name no origin are dropped). */
export function originSet (origins: Iterable<string> | undefined): ReadonlySet<string> {
  const set = new Set<string>()
  for (const entry of origins ?? []) {
    const origin = exactOrigin(entry)
    if (origin != null) set.add(origin)
  }
  return set
}
