import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Whether an IP address is one the open internet routes to. Everything else (this computer,
 * private and carrier networks, link-local addresses such as a cloud's metadata service, unique
 * local IPv6, multicast, the unspecified address, and the IPv6 forms that embed an IPv4 address
 * such as ::ffff:127.0.0.1, 6to4 or NAT64) is "local": a request there from data in a file could
 * reach a service that trusts whoever is on the machine or the network.
 *
 * The ranges are ipaddr.js's, named after their RFCs; only its `unicast` (everything no special
 * range claims) counts as public, so a range it learns later is refused, not let through.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  return ipaddr.process(address).range() === 'unicast'
}

/**
 * The address in a URL's host when the host is an IP address (`[::1]` → `::1`), else undefined.
 * Node connects to such a host without a lookup, so it must be checked as it stands.
 */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? undefined : bare
}
