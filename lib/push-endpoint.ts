// Which Web Push endpoints the API may POST to. A subscription's endpoint is chosen by the client, so without this
// check the push sender would be a request forger (internal addresses, cloud metadata, any site).

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

interface OriginRule { protocol: string, host: string, wildcard: boolean, port: string | null }

// `scheme://host[:port]` with an optional `*.` host prefix and a `*` port; IPv6 hosts in brackets.
const ENTRY = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?(\[[0-9a-f:.]+\]|[^:/[\]*@\s]+)(?::(\d{1,5}|\*))?\/?$/i

function parseRule (entry: string): OriginRule | null {
  const match = ENTRY.exec(entry.trim())
  if (match == null) return null
  const [, scheme, star, host, port] = match
  return { protocol: `${scheme.toLowerCase()}:`, host: host.toLowerCase(), wildcard: star != null, port: port ?? null }
}

function portMatches (rule: OriginRule, url: URL): boolean {
  if (rule.port === '*') return true
  const effective = url.port !== '' ? url.port : (DEFAULT_PORTS[url.protocol] ?? '')
  // No port in the entry means the scheme's default port only.
  const wanted = rule.port ?? DEFAULT_PORTS[rule.protocol]
  return wanted != null && effective !== '' && Number(effective) === Number(wanted)
}

function hostMatches (rule: OriginRule, hostname: string): boolean {
  if (!rule.wildcard) return hostname === rule.host
  // `*.example.com` is any subdomain, never example.com itself (list it separately for that).
  return hostname.length > rule.host.length + 1 && hostname.endsWith(`.${rule.host}`)
}

/**
 * Whether `endpoint` is an address of one of `origins` (`scheme://host[:port]`, host may start with `*.`, port may
 * be `*`). No credentials, no whitespace or backslashes (parsers disagree on those), and the host as the URL parser
 * normalises it (lowercase; a trailing dot is a different name and does not match).
 */
export function endpointAllowed (endpoint: string, origins: string[]): boolean {
  // eslint-disable-next-line no-control-regex
  if (typeof endpoint !== 'string' || /[\s\\\u0000-\u001f\u007f]/.test(endpoint)) return false
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (url.username !== '' || url.password !== '') return false
  if (!endpoint.toLowerCase().startsWith(`${url.protocol}//`)) return false
  const hostname = url.hostname.toLowerCase()
  if (hostname === '') return false
  for (const entry of origins) {
    const rule = parseRule(entry)
    if (rule == null || rule.protocol !== url.protocol) continue
    if (hostMatches(rule, hostname) && portMatches(rule, url)) return true
  }
  return false
}
