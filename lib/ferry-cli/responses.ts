/**
 * @module Type guards for the server's JSON: the CLI trusts only what it checked, and checks only
 * the members it reads (the types are the generated ones of the API contract).
 */
import type { components } from '../../server/generated/api.ts'

type Schemas = components['schemas']
export type Problem = Schemas['Problem']
export type Version = Schemas['Version']
export type Artifact = Schemas['Artifact']
export type VersionList = Schemas['VersionList']
export interface CatalogEntry { name: string }
export interface CatalogList { items: CatalogEntry[]; nextCursor: string | null }

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
const isString = (x: unknown): x is string => typeof x === 'string'
const isBoolean = (x: unknown): x is boolean => typeof x === 'boolean'
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const isCursor = (x: unknown): x is string | null => x === null || isString(x)

export function isProblem(x: unknown): x is Problem {
  if (!isObject(x) || !isString(x.title) || !isNumber(x.status)) return false
  if (x.detail !== undefined && !isString(x.detail)) return false
  return x.errors === undefined || (Array.isArray(x.errors) && x.errors.every((e) => isObject(e) && isString(e.message)))
}

export function isArtifact(x: unknown): x is Artifact {
  return isObject(x) && isString(x.id) && isString(x.fileName) && isString(x.sha256) && isNumber(x.size)
}

export function isVersion(x: unknown): x is Version {
  return isObject(x) && isString(x.id) && isString(x.version) && isString(x.channel) && isString(x.platform) && isString(x.arch) &&
    isBoolean(x.published) && isBoolean(x.critical) && isBoolean(x.intermediate) && isNumber(x.rolloutPercentage) &&
    isRollout(x.rollout) && isString(x.createdAt) && Array.isArray(x.artifacts) && x.artifacts.every(isArtifact)
}

/** `ramp`, `paused` and `pulled` are objects or null (what `ferry status` reads of them). */
function isRollout(x: unknown): x is Version['rollout'] {
  const objectOrNull = (v: unknown) => v === null || isObject(v)
  return isObject(x) && objectOrNull(x.ramp) && objectOrNull(x.paused) && objectOrNull(x.pulled) && isObject(x.health)
}

export function isVersionList(x: unknown): x is VersionList {
  return isObject(x) && Array.isArray(x.items) && x.items.every(isVersion) && isCursor(x.nextCursor)
}

export function isCatalogList(x: unknown): x is CatalogList {
  return isObject(x) && Array.isArray(x.items) && x.items.every((i) => isObject(i) && isString(i.name)) && isCursor(x.nextCursor)
}
