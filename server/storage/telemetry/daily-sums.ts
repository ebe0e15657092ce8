/**
 * @module The summing step the daily roll-ups share (`health-daily.ts`, `offers-daily.ts`): a
 * batch of raw rows added up per key, and the device hashes per version, to delete what was summed.
 */

/** A raw row a roll-up sums: one device's row for one version. */
interface RawRow {
  version_id: string
  device_hash: string
}

export interface Sums<S> {
  /** One sum per key, in the order the keys first came. */
  sums: S[]
  /** The device hashes of the rows summed, per version id. */
  devices: Map<string, string[]>
}

/**
 * Adds `rows` up: `keyOf` names the sum a row goes to, `start` makes that sum (at zero) for the
 * first row of its key, and `add` counts each row into its sum.
 */
export function sumRows<R extends RawRow, S>(
  rows: readonly R[],
  keyOf: (row: R) => string,
  start: (row: R) => S,
  add: (sum: S, row: R) => void,
): Sums<S> {
  const sums = new Map<string, S>()
  const devices = new Map<string, string[]>()
  for (const row of rows) {
    const key = keyOf(row)
    let sum = sums.get(key)
    if (sum === undefined) {
      sum = start(row)
      sums.set(key, sum)
    }
    add(sum, row)
    const hashes = devices.get(row.version_id)
    if (hashes) hashes.push(row.device_hash)
    else devices.set(row.version_id, [row.device_hash])
  }
  return { sums: [...sums.values()], devices }
}
