/**
 * @module Evidence behind health reports. A report counts only from a device Ferry offered the
 * version: the update check records the offer (keyed hashes of the device id and of the client
 * address), so a made-up device id costs an update check and stays inside the rollout's bucket.
 * Addresses are read as networks (IPv4 address, IPv6 /64), and the policy caps what one counts for.
 */
import { LRUCache } from 'lru-cache'
import { hmacSha256Hex } from '../core/crypto.ts'
import { insertOffer } from '../storage/telemetry/health-evidence.ts'
import type { Db } from '../core/storage.ts'

/** Offers one client address can record per version: bounds the rows a single machine can add. */
export const OFFERS_PER_ADDRESS = 100
/** Offers an instance remembers having recorded, so repeated checks do not write again. */
const REMEMBERED_OFFERS = 50_000

/** The network a client address stands for: IPv4 as is, IPv6 its /64 (a host gets a whole /64). */
export function addressNetwork(ip: string | undefined): string {
  if (!ip) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1] as string
  if (!ip.includes(':')) return ip
  const [head = '', tail = ''] = (ip.toLowerCase().split('%')[0] ?? '').split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return (
    groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  )
}

/** The keyed hash a device is known by on one version (reports and offers alike). */
export async function deviceHash(secret: string, versionId: string, deviceId: string): Promise<string> {
  return (await hmacSha256Hex(secret, `health\n${versionId}\n${deviceId}`)).slice(0, 32)
}

/** The keyed hash of a client network on one version: counts distinct addresses, cannot follow one across versions. */
export async function addressHash(secret: string, versionId: string, ip: string | undefined): Promise<string> {
  return (await hmacSha256Hex(secret, `address\n${versionId}\n${addressNetwork(ip)}`)).slice(0, 32)
}

/** What the ledger needs of the app's services. */
export interface OfferLedgerDeps {
  db: Db
  config: { jwtSecret: string }
  now: () => Date
  logger: { error(obj: object, msg?: string): void }
}

/** Records offers made by update checks, once per device and version per instance. */
export class OfferLedger {
  private readonly recorded = new LRUCache<string, true>({ max: REMEMBERED_OFFERS })
  constructor(private readonly s: OfferLedgerDeps) {}

  /** Never fails the update check: a write error is logged and the offer simply does not count. */
  async record(versionId: string, deviceId: string, ip: string | undefined): Promise<void> {
    const key = `${versionId}\n${deviceId}`
    if (this.recorded.has(key)) return
    try {
      const secret = this.s.config.jwtSecret
      await insertOffer(
        this.s.db,
        {
          versionId,
          deviceHash: await deviceHash(secret, versionId, deviceId),
          addressHash: await addressHash(secret, versionId, ip),
          offeredAt: this.s.now().toISOString(),
        },
        OFFERS_PER_ADDRESS,
      )
      this.recorded.set(key, true)
    } catch (err) {
      this.s.logger.error({ err, versionId }, 'update offer not recorded')
    }
  }
}
