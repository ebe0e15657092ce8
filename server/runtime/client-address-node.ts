/**
 * @module The address of the client behind trusted reverse proxies (Node only: `net.BlockList`
 * matches the CIDR ranges). Each proxy appends the address it received the request from to
 * `X-Forwarded-For`, so the list is read from the right: the first address that is not a trusted
 * proxy is the client. Entries further left were written by the client and may be invented.
 */
import { BlockList } from 'node:net'
import { ipVersion } from './config.ts'

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1 on a dual-stack socket. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  return mapped?.[1] ?? address
}

export type ClientAddress = (peer: string | undefined, forwardedFor: string | undefined) => string | undefined

/** `trusted`: addresses and CIDR ranges as `FERRY_TRUSTED_PROXIES` validated them. */
export function clientAddress(trusted: readonly string[]): ClientAddress {
  const list = new BlockList()
  for (const entry of trusted) {
    const [address = '', bits] = entry.split('/')
    const family = ipVersion(address) === 4 ? 'ipv4' : 'ipv6'
    if (bits === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(bits), family)
  }
  const isTrusted = (address: string) => {
    const version = ipVersion(address)
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6')
  }
  return (peer, forwardedFor) => {
    if (peer === undefined) return undefined
    let client = plain(peer)
    if (!isTrusted(client) || !forwardedFor) return client
    const hops = forwardedFor.split(',').map((hop) => plain(hop.trim()))
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? ''
      // Not an address: a trusted proxy wrote nonsense; the last hop it vouched for is the client.
      if (ipVersion(hop) === 0) return client
      client = hop
      if (!isTrusted(hop)) return hop
    }
    return client
  }
}
