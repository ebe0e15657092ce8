/** @module Devices per updater key: telemetry's devices of one day, by the key that signed the version each runs. */
import { sql } from 'kysely'
import type { Db } from '../../core/storage.ts'

export interface KeyDevices {
  /** The latest UTC day with telemetry for the app; `null` when there is none. */
  day: string | null
  /** Devices seen that day. */
  devices: number
  /** Devices that day by the key that verified their version's signature. */
  byKey: Map<string, number>
}

export async function devicesByUpdateKey(db: Db, app: string): Promise<KeyDevices> {
  const latest = await db
    .selectFrom('telemetry_devices')
    .select((eb) => eb.fn.max('day').as('day'))
    .where('app_slug', '=', app)
    .executeTakeFirst()
  const day = latest?.day ?? null
  if (day === null) return { day: null, devices: 0, byKey: new Map() }
  const groups = await db
    .selectFrom('telemetry_devices')
    .select(['version', 'channel', 'platform', 'arch', sql<number>`count(*)`.as('n')])
    .where('app_slug', '=', app)
    .where('day', '=', day)
    .groupBy(['version', 'channel', 'platform', 'arch'])
    .execute()
  const signed = await db
    .selectFrom('versions as v')
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .innerJoin('platforms as p', 'p.id', 'v.platform_id')
    .innerJoin('archs as a', 'a.id', 'v.arch_id')
    .select(['v.version', 'c.name as channel', 'p.name as platform', 'a.name as arch', 'v.update_key'])
    .where('v.app_slug', '=', app)
    .where('v.update_key', 'is not', null)
    .execute()
  const group = (r: { version: string; channel: string; platform: string; arch: string }) =>
    JSON.stringify([r.version, r.channel, r.platform, r.arch])
  const keyOf = new Map(signed.map((r) => [group(r), r.update_key]))
  const byKey = new Map<string, number>()
  let devices = 0
  for (const g of groups) {
    const n = Number(g.n)
    devices += n
    const key = keyOf.get(group(g))
    if (key) byKey.set(key, (byKey.get(key) ?? 0) + n)
  }
  return { day, devices, byKey }
}
