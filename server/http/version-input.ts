/**
 * @module Versions from requests, checked by the library that compares them. The contract's
 * Semver pattern admits strings `semver` refuses (numbers above 2^53 - 1, pre-release numbers
 * with a leading zero, empty identifiers, more than 256 characters); stored or compared, such a
 * version throws, so every version a request carries goes through here first.
 */
import type { SemVer } from 'semver'
import { MAX_VERSION_LENGTH as MAX_LENGTH, parseVersion } from '../storage/releases/version-key.ts'
import { validationProblem } from '../core/problem.ts'

const LARGEST = Number.MAX_SAFE_INTEGER

/** Why `raw` is not a version Ferry can store and compare, in words a client can act on. */
function explain(raw: string): string {
  if (raw.length > MAX_LENGTH) return `is longer than ${MAX_LENGTH} characters`
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([^+]*))?(?:\+(.*))?$/.exec(raw)
  const generic = 'must be a semantic version (semver.org 2.0) such as 1.4.0 or 2.0.0-beta.3, without a leading v'
  if (!m) return generic
  const [, major, minor, patch, pre, build] = m
  if ([major, minor, patch].some((n) => Number(n) > LARGEST)) return `has a number above 2^53 - 1 (${LARGEST})`
  const prerelease = pre?.split('.') ?? []
  if ([...prerelease, ...(build?.split('.') ?? [])].includes('')) return 'has an empty pre-release or build identifier'
  if (prerelease.some((id) => /^0\d+$/.test(id))) return 'has a numeric pre-release identifier with a leading zero'
  return generic
}

/** The version in the request member `field`; a 400 naming `field` when it is not one. */
export function versionInput(field: string, raw: string): SemVer {
  const parsed = parseVersion(raw)
  if (!parsed) throw validationProblem([{ field, message: explain(raw) }])
  return parsed
}

/** As `versionInput`, for an optional member. */
export function optionalVersionInput(field: string, raw: string | undefined): SemVer | undefined {
  return raw === undefined ? undefined : versionInput(field, raw)
}
