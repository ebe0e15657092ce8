/**
 * @module The SQL of recording update-check telemetry: which apps still exist, and adding a flush's
 * counts and device hashes to the stored ones in one transaction (all or nothing).
 */
import type { Db, TelemetryCountsTable, TelemetryDevicesTable } from '../../core/storage.ts'

/** Rows per insert statement. */
const BATCH = 100

/** Those of `slugs` that name an app (of any team). */
export async function existingAppSlugs(db: Db, slugs: string[]): Promise<Set<string>> {
  return new Set((await db.selectFrom('apps').select('slug').where('slug', 'in', slugs).execute()).map((a) => a.slug))
}

/**
 * Adds `counts` to the stored checks of their groups and stores the device hashes not stored yet,
 * in one transaction, so several instances sum their counts and count a device once.
 */
export async function addTelemetry(
  db: Db,
  counts: TelemetryCountsTable[],
  devices: TelemetryDevicesTable[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < counts.length; i += BATCH) {
      await trx
        .insertInto('telemetry_counts')
        .values(counts.slice(i, i + BATCH))
        .onConflict((oc) =>
          oc
            .columns(['app_slug', 'day', 'version', 'channel', 'platform', 'arch'])
            .doUpdateSet((eb) => ({ checks: eb('telemetry_counts.checks', '+', eb.ref('excluded.checks')) })),
        )
        .execute()
    }
    for (let i = 0; i < devices.length; i += BATCH) {
      await trx
        .insertInto('telemetry_devices')
        .values(devices.slice(i, i + BATCH))
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
  })
}
