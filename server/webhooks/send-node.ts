/**
 * @module Sending webhooks from Node, refusing private targets (SSRF): every address a host name
 * resolves to is checked, at subscription time and again as the request connects (node:http's
 * `lookup`, so a name that resolves differently later still cannot reach a private address).
 * Redirects are never followed; each attempt is bounded by a timeout and a response-size limit.
 */
import { BlockList, isIP } from 'node:net'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { SendResult, SendWebhook } from './worker.ts'
import { webhookUrlSyntaxProblem } from './url.ts'

/** Ranges a webhook may not reach unless `FERRY_WEBHOOK_ALLOW_PRIVATE=true`. */
const PRIVATE = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6')

/** Why `address` may not be reached, or `undefined` when it may. */
export function refusedAddress(address: string): string | undefined {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1]
  const plain = mapped ?? address
  const family = isIP(plain)
  if (family === 0) return `${address} is not an IP address`
  return PRIVATE.check(plain, family === 4 ? 'ipv4' : 'ipv6')
    ? `${address} is a loopback, private, link-local or reserved address`
    : undefined
}

export const TIMEOUT_MS = 10_000
/** Bytes of a receiver's response body read at most; more ends the attempt. */
export const MAX_RESPONSE_BYTES = 64 * 1024

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((done, fail) => {
    dnsLookup(host, { all: true }, (err, addresses) => (err ? fail(err) : done(addresses)))
  })

/**
 * Whether `url` may receive webhooks: `undefined` when it may, else why not (for a 400 naming
 * the field). Host names are resolved and every address checked.
 */
export async function checkWebhookUrl(url: string, allowPrivate: boolean): Promise<string | undefined> {
  const syntax = await webhookUrlSyntaxProblem(url)
  if (syntax || allowPrivate) return syntax
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address)
  } catch {
    return `names a host that does not resolve (${host})`
  }
  for (const address of addresses) {
    const why = refusedAddress(address)
    if (why) return `resolves to ${why}; set FERRY_WEBHOOK_ALLOW_PRIVATE=true to allow it`
  }
  return undefined
}

/** The `lookup` node:http uses: resolves as usual, then refuses when any address is private. */
function guardedLookup(
  hostname: string,
  options: object,
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    const refused = addresses.map((a) => refusedAddress(a.address)).find((why) => why !== undefined)
    if (refused) return callback(new Error(`refused: ${hostname} resolves to ${refused}`), [])
    const all = 'all' in options && options.all === true
    const first = addresses[0]
    if (all || !first) return callback(null, addresses)
    callback(null, first.address, first.family)
  })
}

/** Node's sender: POSTs `body`, reads at most `MAX_RESPONSE_BYTES` of the answer, never follows a redirect. */
export function sendWebhookNode(allowPrivate: boolean, timeoutMs = TIMEOUT_MS): SendWebhook {
  return (url, headers, body) =>
    new Promise<SendResult>((done) => {
      const target = new URL(url)
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
      if (!allowPrivate && isIP(host)) {
        const why = refusedAddress(host)
        if (why) return done({ error: `refused: ${why}` })
      }
      const options: RequestOptions = {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      }
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (res) => {
        const status = res.statusCode ?? 0
        let read = 0
        res.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > MAX_RESPONSE_BYTES) {
            res.destroy()
            done({ error: `the response was larger than ${MAX_RESPONSE_BYTES} bytes` })
          }
        })
        res.on('end', () => {
          if (status >= 300 && status < 400)
            done({
              status,
              error: `HTTP ${status}: redirects are not followed (Location: ${String(res.headers.location ?? '').slice(0, 200)})`,
            })
          else done({ status })
        })
        res.on('error', (err) => done({ error: err.message }))
      })
      const overall = setTimeout(
        () => request.destroy(new Error(`no response within ${timeoutMs / 1000} s`)),
        timeoutMs,
      )
      request.on('timeout', () => request.destroy(new Error(`no response within ${timeoutMs / 1000} s`)))
      request.on('error', (err) => done({ error: err.message }))
      request.on('close', () => clearTimeout(overall))
      request.end(body)
    })
}
