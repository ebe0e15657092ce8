/**
 * @module The SQL behind health evidence: offers recorded by update checks (bounded per version
 * and client address), and a version's reports read per address, each joined to its offer.
 */
import { sql } from 'kysely'
import { dayOf } from './health-daily.ts'
import { perDatabase } from '../per-database.ts'
import { prepared, type Slots } from '../prepared.ts'
import type { Db } from '../../core/storage.ts'

export interface OfferRow {
  versionId: string
  deviceHash: string
  addressHash: string
  offeredAt: string
}

/**
 * Records an offer unless the device has one for the version, or the address already holds
 * `perAddress` offers of it (one statement, so concurrent checks on any instance stay close to it).
 */
export async function insertOffer(db: Db, o: OfferRow, perAddress: number): Promise<void> {
  await sql`INSERT INTO update_offers (version_id, device_hash, address_hash, offered_at)
    SELECT CAST(${o.versionId} AS text), CAST(${o.deviceHash} AS text), CAST(${o.addressHash} AS text), CAST(${o.offeredAt} AS text)
    WHERE (SELECT count(*) FROM update_offers WHERE version_id = ${o.versionId} AND address_hash = ${o.addressHash}) < ${perAddress}
    ON CONFLICT (version_id, device_hash) DO NOTHING`.execute(db)
}

export async function offerExists(db: Db, versionId: string, deviceHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('update_offers')
    .select('version_id')
    .where('version_id', '=', versionId)
    .where('device_hash', '=', deviceHash)
    .executeTakeFirst()
  return row !== undefined
}

export interface AddressOutcomes {
  installed: number
  failed: number
}

/** Reports joined to their offers and versions, summed per version and address; callers filter. */
const rawByAddress = perDatabase((db) =>
  db
    .selectFrom('health_reports as h')
    .innerJoin('update_offers as o', (j) =>
      j.onRef('o.version_id', '=', 'h.version_id').onRef('o.device_hash', '=', 'h.device_hash'),
    )
    .innerJoin('versions as v', 'v.id', 'h.version_id')
    .groupBy(['h.version_id', 'o.address_hash'])
    .select((eb) => [
      'h.version_id',
      'o.address_hash',
      eb.fn.sum<number | string | null>(eb.case().when('h.outcome', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn
        .sum<number | string | null>(eb.case().when('h.outcome', '=', 'installed').then(1).else(0).end())
        .as('installed'),
    ]),
)

/** Summed days joined to their versions, summed per version and address; callers filter. */
const dailyByAddress = perDatabase((db) =>
  db
    .selectFrom('health_daily as d')
    .innerJoin('versions as v', 'v.id', 'd.version_id')
    .groupBy(['d.version_id', 'd.address_hash'])
    .select((eb) => [
      'd.version_id',
      'd.address_hash',
      eb.fn.sum<number | string>('d.failed').as('failed'),
      eb.fn.sum<number | string>('d.installed').as('installed'),
    ]),
)

/** Reports counted since each version's last resume: all of them for `ids`, or for `after`'s ids only those after its time. */
type EvidenceFilter = { ids: string[]; after: string[] | null }

const rawStatement = prepared((db, $: Slots<EvidenceFilter>) => {
  const { ids, after } = $
  return rawByAddress(db)
    .where((eb) =>
      after !== null
        ? eb.or(ids.map((id, i) => eb.and([eb('h.version_id', '=', id), eb('h.reported_at', '>', after[i]!)])))
        : eb('h.version_id', 'in', ids),
    )
    .where((eb) => eb.or([eb('v.health_since', 'is', null), eb('h.reported_at', '>=', eb.ref('v.health_since'))]))
})

// Summed days (storage/telemetry/health-daily.ts) count as their raw rows did: whole days after the last
// resume, and after the day a gated step's window opened (those two days stay raw).
const dailyStatement = prepared((db, $: Slots<EvidenceFilter & { afterDay: string[] | null }>) => {
  const { ids, afterDay } = $
  return dailyByAddress(db)
    .where((eb) =>
      afterDay !== null
        ? eb.or(ids.map((id, i) => eb.and([eb('d.version_id', '=', id), eb('d.day', '>', afterDay[i]!)])))
        : eb('d.version_id', 'in', ids),
    )
    .where('d.address_hash', '!=', '')
    .where((eb) => eb.or([eb('v.health_since', 'is', null), eb('d.day', '>', dayOf('v.health_since'))]))
})

/**
 * Per version, the reports since its last resume grouped by the address its device was offered
 * the version from. Reports without an offer never count.
 */
export function reportsByAddress(db: Db, ids: string[]): Promise<Map<string, AddressOutcomes[]>> {
  return evidenceByAddress(db, { ids, after: null })
}

/**
 * `reportsByAddress` for the versions `since` names (version id → ISO time), keeping only their
 * reports after that time (a gated ramp's step: the report that released a hold belongs to the
 * step before).
 */
export function reportsByAddressSince(
  db: Db,
  since: ReadonlyMap<string, string>,
): Promise<Map<string, AddressOutcomes[]>> {
  return evidenceByAddress(db, { ids: [...since.keys()], after: [...since.values()] })
}

async function evidenceByAddress(db: Db, filter: EvidenceFilter): Promise<Map<string, AddressOutcomes[]>> {
  const out = new Map<string, AddressOutcomes[]>()
  if (filter.ids.length === 0) return out
  const rows = await rawStatement(db, filter)
  const daily = await dailyStatement(db, {
    ...filter,
    afterDay: filter.after && filter.after.map((t) => t.slice(0, 10)),
  })
  const byAddress = new Map<string, AddressOutcomes & { version: string }>()
  for (const r of [...rows, ...daily]) {
    const key = `${r.version_id}\n${r.address_hash}`
    const a = byAddress.get(key) ?? { version: r.version_id, installed: 0, failed: 0 }
    a.installed += Number(r.installed ?? 0)
    a.failed += Number(r.failed ?? 0)
    byAddress.set(key, a)
  }
  for (const { version, installed, failed } of byAddress.values()) {
    const list = out.get(version) ?? []
    list.push({ installed, failed })
    out.set(version, list)
  }
  return out
}
