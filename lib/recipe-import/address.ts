// Which IP addresses a server-side fetch of the recipe import may connect to (decisions.md "URL safety").
// Fail closed: only text in a strict form is parsed (dotted-quad IPv4 without leading zeros, or IPv6 without a zone),
// so legacy spellings such as 2130706433, 0x7f.1 or 017700000001 are never "public" whatever a resolver makes of them.
import ipaddr from 'ipaddr.js'

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const STRICT_V4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`)
const V6_CHARS = /^[0-9a-f:.]+$/i

/** 2000::/3: the only IPv6 block allocated for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number]
/** RFC 6052 well-known NAT64 prefix: the IPv4 address sits in the last 32 bits. (64:ff9b:1::/48 is local use.) */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number]

/** Parses an address written in a strict form (IPv6 may be in brackets); anything else is null. */
export function parseAddress (text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (typeof text !== 'string') return null
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (STRICT_V4.test(address)) return ipaddr.IPv4.parse(address)
  if (!V6_CHARS.test(address) || !address.includes(':')) return null // no zone (%eth0), no legacy IPv4 forms
  if (address.includes('.') && !STRICT_V4.test(address.slice(address.lastIndexOf(':') + 1))) return null
  if (!ipaddr.IPv6.isValid(address)) return null
  return ipaddr.IPv6.parse(address)
}

const v4 = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff])

const publicV4 = (ip: ipaddr.IPv4): boolean => ip.range() === 'unicast'

/**
 * The IPv4 addresses an IPv6 address carries and would reach: IPv4-mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d),
 * NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::/48) and Teredo (server and client). null for a plain IPv6 address;
 * an empty list when the form carries no usable IPv4 address (NAT64 local-use prefix).
 */
function embeddedV4 (ip: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = ip.parts
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(p[6], p[7])]
    case 'rfc6052':
      return ip.match(NAT64_WELL_KNOWN) ? [v4(p[6], p[7])] : []
    case '6to4':
      return [v4(p[1], p[2])]
    case 'teredo':
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client address stored inverted.
      return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)]
    default:
      return null
  }
}

/**
 * Whether an address (v4 or v6 text) is public unicast (after unwrapping mapped/NAT64/6to4/Teredo forms).
 * IPv4: ipaddr.js range() 'unicast' (not 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.168/16, 192.0.0/24,
 * test nets, 198.18/15, multicast, 240/4, broadcast...). IPv6: the embedded IPv4 address(es) for the wrapping forms,
 * otherwise inside 2000::/3 and range() 'unicast' (so not ::, ::1, ::/96, fc00::/7, fe80::/10, ff00::/8, 2001:db8::/32,
 * 64:ff9b:1::/48...).
 */
export function isPublicAddress (address: string): boolean {
  const ip = parseAddress(address)
  if (ip == null) return false
  if (ip.kind() === 'ipv4') return publicV4(ip as ipaddr.IPv4)
  const v6 = ip as ipaddr.IPv6
  const wrapped = embeddedV4(v6)
  if (wrapped != null) return wrapped.length > 0 && wrapped.every(publicV4)
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6)
}

/** Loopback only: 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104. The one extra class a test setting may allow. */
export function isLoopbackAddress (address: string): boolean {
  const ip = parseAddress(address)
  if (ip == null) return false
  if (ip.kind() === 'ipv4') return ip.range() === 'loopback'
  const v6 = ip as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'loopback'
  return v6.range() === 'loopback'
}

/** The address rule of a fetch: public unicast, or loopback for a URL of an origin the test setting names. */
export function addressAllowed (address: string, loopbackAllowed = false): boolean {
  return isPublicAddress(address) || (loopbackAllowed && isLoopbackAddress(address))
}
