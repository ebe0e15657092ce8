/**
 * @module A version's sort key: printable ASCII whose byte order is semver precedence, so the
 * database can range-scan and order versions (`versions.version_key`, compared bytewise: BINARY
 * on SQLite, `COLLATE "C"` on PostgreSQL). Build metadata is ignored, as precedence ignores it.
 *
 * Layout: major, minor and patch as numbers, then `~` for a release or `-` and the pre-release
 * identifiers followed by `0` (so fewer identifiers sort first, and every pre-release below the
 * release). A number is its digit count in three digits, then its digits: longer is larger.
 * An identifier is `1` and a number, or `2`, its characters and `!` (below every identifier
 * character, so a prefix sorts first): numeric below alphanumeric.
 */
import { SemVer } from 'semver'

/** Longer texts are never versions (`server/http/version-input.ts` says why to a client). */
export const MAX_VERSION_LENGTH = 256

/** The canonical text of a parsed version; equals the input only when no `v`, `=` or whitespace was dropped. */
const canonical = (v: SemVer) => (v.build.length ? `${v.version}+${v.build.join('.')}` : v.version)

/** Parses `raw`, or `null` when `semver` refuses it or it is not in canonical form. */
export function parseVersion(raw: string): SemVer | null {
  if (raw.length > MAX_VERSION_LENGTH) return null
  try {
    const parsed = new SemVer(raw)
    return canonical(parsed) === raw ? parsed : null
  } catch {
    return null
  }
}

const number = (digits: string) => {
  const trimmed = digits.replace(/^0+(?=\d)/, '')
  return String(trimmed.length).padStart(3, '0') + trimmed
}

const identifier = (id: string | number) => {
  const text = String(id)
  return /^[0-9]+$/.test(text) ? `1${number(text)}` : `2${text}!`
}

export function versionKeyOf(v: SemVer): string {
  const main = number(String(v.major)) + number(String(v.minor)) + number(String(v.patch))
  return v.prerelease.length ? `${main}-${v.prerelease.map(identifier).join('')}0` : `${main}~`
}

/** The key of a stored version, or `null` for one `parseVersion` refuses (never offered). */
export function versionKey(raw: string): string | null {
  const parsed = parseVersion(raw)
  return parsed ? versionKeyOf(parsed) : null
}
