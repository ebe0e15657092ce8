/**
 * @module Telemetry counting: update checks that carry a device id, per app, version, channel,
 * platform, arch and UTC day, with unique devices per day. Counts are buffered in memory and
 * written in batches (`flush`), so an update check costs a map update, not a database write.
 * Writes add to the stored counts and ignore device hashes already stored, so several instances
 * on one database (sharing the secret) sum their checks and count a device once; a failed write
 * keeps its counts for the next flush.
 * Device ids reach the database only as HMAC-SHA256(secret, day + id): no IP, and the same device
 * cannot be followed from one day to the next.
 * A client network (IPv4 address, IPv6 /64) records at most `TELEMETRY_DEVICES_PER_ADDRESS` new
 * devices per app and UTC day on each instance, so made-up device ids cannot add rows without
 * bound; past it a check still counts, its device is not recorded. The address is only a key of
 * that in-memory limiter, never stored.
 */
import { LRUCache } from 'lru-cache'
import { hmacSha256Hex } from '../core/crypto.ts'
import { FixedWindows } from '../auth/fixed-windows.ts'
import { addressNetwork } from '../updates/health-evidence.ts'
import { addTelemetry, existingAppSlugs } from '../storage/telemetry/telemetry-recording.ts'
import type { Db } from '../core/storage.ts'

export interface TelemetryKey {
  app: string
  version: string
  channel: string
  platform: string
  arch: string
}

interface Bucket {
  key: TelemetryKey
  day: string
  checks: number
  devices: Set<string>
}

/** Buffered device ids before a flush is started without waiting for the timer. */
const FLUSH_AT_DEVICES = 5000

/**
 * What the buffer holds at most while a flush cannot keep up (each entry's strings are bounded
 * too: catalog names, a semver of at most 256 characters, a device id of at most 128). Beyond
 * it a check of a bucket already buffered still counts; a new device or bucket is dropped.
 */
export const TELEMETRY_BUFFER_LIMITS = { devices: 4 * FLUSH_AT_DEVICES, buckets: FLUSH_AT_DEVICES } as const

/** New devices one client network may record per app and UTC day, on each instance. */
export const TELEMETRY_DEVICES_PER_ADDRESS = 100
const DAY_MS = 86_400_000
/** Networks the limiter remembers at once (the least recently seen are forgotten first). */
const TRACKED_ADDRESSES = 20_000
/**
 * Devices recorded lately (per day and bucket), so a device checking again spends nothing of its
 * network's allowance: at most this many, and this many characters of keys in all.
 */
const REMEMBERED_DEVICES = { max: 50_000, chars: 8_000_000 } as const

export interface TelemetryBufferStats {
  buckets: number
  devices: number
  checks: number
  /** Checks not counted since the start because the buffer was full. */
  dropped: number
}

export class TelemetryRecorder {
  private buffer = new Map<string, Bucket>()
  private buffered = 0
  private checks = 0
  private dropped = 0
  /** A flush was started by `record` and has not taken the buffer yet: start no other. */
  private flushQueued = false
  /**
   * The last write failed and its counts are back in the buffer: `record` starts no early flush
   * (it would try again on every check while the database is down); the timer's flush retries.
   */
  private lastWriteFailed = false
  private flushing: Promise<void> = Promise.resolve()
  private readonly db: Db
  private readonly secret: string
  private readonly now: () => Date
  private readonly onError: (error: unknown) => void
  /** New devices per day, app and client network. */
  private readonly newDevices: FixedWindows
  private readonly recorded = new LRUCache<string, true>({
    max: REMEMBERED_DEVICES.max,
    maxSize: REMEMBERED_DEVICES.chars,
    sizeCalculation: (_, key) => key.length,
  })

  constructor(db: Db, secret: string, now: () => Date, onError: (error: unknown) => void) {
    this.db = db
    this.secret = secret
    this.now = now
    this.onError = onError
    this.newDevices = new FixedWindows(TELEMETRY_DEVICES_PER_ADDRESS, DAY_MS, TRACKED_ADDRESSES, () =>
      this.now().getTime(),
    )
  }

  /**
   * Counts a check of `deviceId`. `clientIp` is read only for a device not recorded lately
   * (`undefined`: an unknown address, all such checks one network).
   */
  record(key: TelemetryKey, deviceId: string, clientIp: () => string | undefined): void {
    const day = this.now().toISOString().slice(0, 10)
    const id = `${day}\n${key.app}\n${key.version}\n${key.channel}\n${key.platform}\n${key.arch}`
    const full = this.buffered >= TELEMETRY_BUFFER_LIMITS.devices
    let bucket = this.buffer.get(id)
    if (!bucket) {
      if (full || this.buffer.size >= TELEMETRY_BUFFER_LIMITS.buckets) {
        this.dropped++
        return
      }
      bucket = { key, day, checks: 0, devices: new Set() }
      this.buffer.set(id, bucket)
    }
    bucket.checks++
    this.checks++
    if (bucket.devices.has(deviceId)) return
    if (full) {
      this.dropped++
      return
    }
    const row = `${id}\n${deviceId}`
    if (!this.recorded.has(row)) {
      // The network's allowance is spent: the check counted, the device is not recorded as new.
      if (this.newDevices.hit(`${day}\n${key.app}\n${addressNetwork(clientIp())}`) !== undefined) return
      this.recorded.set(row, true)
    }
    bucket.devices.add(deviceId)
    if (++this.buffered >= FLUSH_AT_DEVICES && !this.flushQueued && !this.lastWriteFailed) {
      this.flushQueued = true
      this.flush().catch(this.onError)
    }
  }

  /** What is buffered now (for monitoring and tests). */
  stats(): TelemetryBufferStats {
    return { buckets: this.buffer.size, devices: this.buffered, checks: this.checks, dropped: this.dropped }
  }

  /** Writes everything buffered so far; concurrent calls run one after the other. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write())
    this.flushing = run.catch(() => undefined)
    return run
  }

  private async write(): Promise<void> {
    this.flushQueued = false
    if (this.buffer.size === 0) return
    const taken = this.buffer
    this.buffer = new Map()
    this.buffered = 0
    this.checks = 0
    try {
      await this.store([...taken.values()])
      this.lastWriteFailed = false
    } catch (error) {
      // Nothing of it was written (the read before the transaction writes nothing, the
      // transaction is all or nothing), so the next flush writes it with what was counted
      // meanwhile, once. Only a connection lost during COMMIT itself leaves unknown whether it
      // landed; those counts may then be written twice.
      this.putBack(taken)
      this.lastWriteFailed = true
      throw error
    }
  }

  /** Merges buckets a failed write took back into the buffer, within its limits. */
  private putBack(taken: Map<string, Bucket>): void {
    for (const [id, old] of taken) {
      let bucket = this.buffer.get(id)
      if (!bucket) {
        if (this.buffer.size >= TELEMETRY_BUFFER_LIMITS.buckets) {
          this.dropped += old.checks
          continue
        }
        bucket = { key: old.key, day: old.day, checks: 0, devices: new Set() }
        this.buffer.set(id, bucket)
      }
      bucket.checks += old.checks
      this.checks += old.checks
      for (const device of old.devices) {
        if (bucket.devices.has(device)) continue
        if (this.buffered >= TELEMETRY_BUFFER_LIMITS.devices) {
          this.dropped++
          continue
        }
        bucket.devices.add(device)
        this.buffered++
      }
    }
  }

  private async store(buckets: Bucket[]): Promise<void> {
    const existing = await existingAppSlugs(this.db, [...new Set(buckets.map((b) => b.key.app))])
    const live = buckets.filter((b) => existing.has(b.key.app))
    const row = (b: Bucket) => ({
      app_slug: b.key.app,
      day: b.day,
      version: b.key.version,
      channel: b.key.channel,
      platform: b.key.platform,
      arch: b.key.arch,
    })
    const counts = live.map((b) => ({ ...row(b), checks: b.checks }))
    const devices: Array<ReturnType<typeof row> & { device_hash: string }> = []
    for (const b of live) {
      for (const id of b.devices)
        devices.push({ ...row(b), device_hash: (await hmacSha256Hex(this.secret, `${b.day}\n${id}`)).slice(0, 32) })
    }
    await addTelemetry(this.db, counts, devices)
  }
}
