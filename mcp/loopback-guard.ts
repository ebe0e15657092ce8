/**
 * @module The DNS-rebinding guard of `ferry mcp --http` (MCP transports spec, "Security Warning"):
 * a page on another site can make a browser send requests to 127.0.0.1, but its Origin header, and
 * after a DNS rebinding its Host header, name that site. Only this server's own names pass.
 */

export interface LoopbackNames {
  /** Host header values that reach this server, e.g. `127.0.0.1:8765`, `localhost:8765`. */
  hosts: readonly string[]
  /** Origins allowed to call it from a browser: the same names over http. */
  origins: readonly string[]
}

export function loopbackNames(port: number): LoopbackNames {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  return { hosts, origins: hosts.map((h) => `http://${h}`) }
}

/** Why a request is refused (403), or undefined when its Host and Origin are this server's. */
export function foreignRequest(
  headers: { host?: string | undefined; origin?: string | undefined },
  names: LoopbackNames,
): string | undefined {
  const host = headers.host?.toLowerCase()
  if (!host || !names.hosts.includes(host))
    return `Host ${JSON.stringify(headers.host ?? '')} is not this server (${names.hosts.join(' or ')}): refused, as a DNS-rebinding guard`
  const origin = headers.origin
  if (origin !== undefined && !names.origins.includes(origin.toLowerCase()))
    return `Origin ${JSON.stringify(origin)} may not call this server (only ${names.origins.join(' or ')}): refused, as a DNS-rebinding guard`
  return undefined
}
