// The same page under different URLs (tracking parameters, fragments, www., trailing slash, letter case of the host)
// is one source: duplicates are found by this key.

const TRACKING = /^(utm_.*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|igshid|yclid|_ga|_gl|ref|ref_src|source|share|amp)$/i

/** The normalised key of a page URL, or null when it is not an http(s) URL. */
export function sourceKey (url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
  const host = parsed.host.toLowerCase().replace(/^(www|m|amp)\./, '')
  const path = parsed.pathname.replace(/\/amp\/?$/, '/').replace(/\/+$/, '') || '/'
  const params = [...parsed.searchParams].filter(([name]) => !TRACKING.test(name)).sort(([a], [b]) => a.localeCompare(b))
  const query = params.length === 0 ? '' : `?${new URLSearchParams(params).toString()}`
  return `${host}${path}${query}`
}

/** What a stored source URL must contain to possibly share the key: host (without www.) and path. */
export function sourceKeyPrefix (key: string): string {
  return key.split('?')[0]
}
