/**
 * @module The updater public keys an app holds, with their roles, for key rotation: `current`
 * (what the installed base trusts), `next` (what a bridge release taught it to trust) and
 * `retired` (kept on record, no longer accepted). Uploads' signatures may be made by the current
 * or the next key. The current key is the app's `tauri_public_key` / `sparkle_public_key`; the
 * others live as JSON beside it.
 */
import type { FieldError } from '../core/problem.ts'

export type KeyRole = 'current' | 'next' | 'retired'
export interface RoleKey {
  key: string
  role: KeyRole
}

const ROLES: readonly string[] = ['current', 'next', 'retired']
const isRole = (value: unknown): value is KeyRole => typeof value === 'string' && ROLES.includes(value)

/** The stored non-current keys; anything unreadable reads as none. */
export function storedExtraKeys(text: string | null): RoleKey[] {
  if (text === null) return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  if (!Array.isArray(value)) return []
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return []
    const record: Record<string, unknown> = Object.fromEntries(Object.entries(entry))
    return typeof record.key === 'string' && isRole(record.role) && record.role !== 'current'
      ? [{ key: record.key, role: record.role }]
      : []
  })
}

/** Every key of one kind, the current one first. */
export function appKeys(current: string | null, extra: string | null): RoleKey[] {
  return [...(current === null ? [] : [{ key: current, role: 'current' as const }]), ...storedExtraKeys(extra)]
}

/** The keys an upload's signatures may be made with: the current one, then the next one. */
export const acceptedKeys = (keys: RoleKey[]): string[] =>
  [...keys.filter((k) => k.role === 'current'), ...keys.filter((k) => k.role === 'next')].map((k) => k.key)

/**
 * The keys a build trusts, from an upload's `trustsKeys` (public keys as the app lists them,
 * separated by commas or whitespace), each checked against every key the app holds (`known`);
 * without the field, the key that signed it (`signedBy`), or `null` when unsigned.
 */
export function trustedKeysOfUpload(
  declared: string | undefined,
  known: string[],
  signedBy: string | null,
): { keys: string[] | null; errors: string[] } {
  const keys = [...new Set((declared ?? '').split(/[\s,]+/).filter((k) => k !== ''))]
  // An empty form field is a field not filled in (forms send them): the build trusts its own signing key.
  if (!keys.length) return { keys: signedBy === null ? null : [signedBy], errors: [] }
  const errors = keys.flatMap((k, i) =>
    known.includes(k) ? [] : [`key ${i} (${k.slice(0, 16)}…) is not one of the app's Tauri or Sparkle public keys`],
  )
  return { keys, errors }
}

/** A sent key list's problems (each key readable, one current and one next at most, no repeats); `columns` splits a valid one. */
export function keyListProblems(
  keys: RoleKey[],
  field: string,
  readable: (key: string) => boolean,
  what: string,
): FieldError[] {
  const errors: FieldError[] = []
  keys.forEach((k, i) => {
    if (!readable(k.key)) errors.push({ pointer: `/${field}/${i}/key`, message: `is not ${what}` })
    if (keys.findIndex((other) => other.key.trim() === k.key.trim()) !== i)
      errors.push({
        pointer: `/${field}/${i}/key`,
        message: `repeats key ${keys.findIndex((other) => other.key.trim() === k.key.trim())}`,
      })
  })
  for (const role of ['current', 'next'] as const) {
    if (keys.filter((k) => k.role === role).length > 1)
      errors.push({ pointer: `/${field}`, message: `holds more than one ${role} key` })
  }
  if (keys.length > 0 && !keys.some((k) => k.role === 'current'))
    errors.push({ pointer: `/${field}`, message: 'has no current key: the installed base trusts one; mark it current' })
  return errors
}

/** A valid key list as the two columns it is stored in. */
export function keyColumns(keys: RoleKey[]): { current: string | null; extra: string | null } {
  const current = keys.find((k) => k.role === 'current')?.key.trim() ?? null
  const extra = keys.filter((k) => k.role !== 'current').map((k) => ({ key: k.key.trim(), role: k.role }))
  return { current, extra: extra.length ? JSON.stringify(extra) : null }
}
