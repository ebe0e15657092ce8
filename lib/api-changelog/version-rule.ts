/**
 * @module The rule for `info.version`: a breaking change to the contract needs a major bump
 * (1.2.3 → 2.0.0), or while the contract is 0.x a minor bump (0.3.1 → 0.4.0), relative to the
 * newest frozen snapshot. Additive changes need no bump. The version never goes backwards.
 */
import semver from 'semver'

/** The problem with going from `previous` to `current` given whether a breaking change was made, or undefined. */
export function versionProblem(previous: string, current: string, breaking: boolean): string | undefined {
  const prev = semver.parse(previous)
  const cur = semver.parse(current)
  if (!prev) return `info.version ${JSON.stringify(previous)} of the snapshot is not semver`
  if (!cur) return `info.version ${JSON.stringify(current)} is not semver`
  if (semver.lt(cur, prev)) return `info.version ${current} is below the frozen ${previous}`
  if (!breaking) return undefined
  const bumped = prev.major === 0 ? cur.major > 0 || cur.minor > prev.minor : cur.major > prev.major
  if (bumped) return undefined
  const needed = prev.major === 0 ? `0.${prev.minor + 1}.0` : `${prev.major + 1}.0.0`
  return `info.version ${current} makes breaking changes to ${previous} without a ${prev.major === 0 ? 'minor (0.x)' : 'major'} bump: set it to ${needed} or above (and ship the breaking change under a new path prefix, see "Versioning")`
}
