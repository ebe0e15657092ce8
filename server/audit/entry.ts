/**
 * @module What one audit entry holds (who, what, when, from where), the verbs it is filed under,
 * and the rule that keeps secrets out of its `changes`.
 */

export interface AuditActor {
  type: 'user' | 'token' | 'system'
  /** The user's or token's id; `system` for Ferry itself. */
  id: string
  name: string
  email: string | null
  /** The person behind it: the user, or the token's creator; null for `system`. */
  userId: string | null
  /** A token's creator's email. */
  creatorEmail: string | null
}

export const SYSTEM_ACTOR: AuditActor = {
  type: 'system',
  id: 'system',
  name: 'Ferry',
  email: null,
  userId: null,
  creatorEmail: null,
}

export interface AuditChange {
  from?: unknown
  to?: unknown
}
export type AuditChanges = Record<string, AuditChange>

export interface AuditTarget {
  type: string
  id: string | null
  app: string | null
}

export interface AuditEntry {
  teamId: string
  at: Date
  actor: AuditActor
  /** The API operation; null for what Ferry did on its own. */
  operationId: string | null
  action: string
  target: AuditTarget
  changes: AuditChanges
  address: string | null
}

/** What a handler adds to its request's entry: the values before the change, a created id. */
export interface AuditNote {
  /** Field → value before the write, for the fields the request sets (same names as the body). */
  before?: Record<string, unknown>
  /** Changes a handler states itself (merged over those derived from the body). */
  changes?: AuditChanges
  /** The id of what the request created, when the response does not carry it as `id`. */
  targetId?: string
  /** The app the target belongs to, when the path does not name it. */
  app?: string
  /** The object the write created, as its answer carries it (its `id` or `slug` names the target). */
  created?: unknown
}

/** Verbs whose operation id does not read as `<verb><Object>`, or whose object reads better short. */
const ACTIONS: Record<string, string> = {
  signup: 'team.create',
  login: 'session.create',
  createApiToken: 'token.create',
  revokeApiToken: 'token.revoke',
  createTeamUser: 'user.create',
  updateTeamUser: 'user.update',
  deleteTeamUser: 'user.delete',
  updateAdminPassword: 'admin.password.change',
}

/**
 * `<object>.<verb>` for an operation: `pauseVersion` → `version.pause`. Operations added later
 * (`createWebhook`) get theirs from the same reading. A version update that only publishes or
 * unpublishes is filed as `version.publish` / `version.unpublish`.
 */
export function actionOf(operationId: string, body: unknown): string {
  if (operationId === 'updateVersion' && isRecord(body) && typeof body.published === 'boolean') {
    return body.published ? 'version.publish' : 'version.unpublish'
  }
  const known = ACTIONS[operationId]
  if (known) return known
  const m = /^([a-z]+)([A-Z][A-Za-z0-9]*)$/.exec(operationId)
  if (!m?.[1] || !m[2]) return operationId
  return `${m[2].charAt(0).toLowerCase()}${m[2].slice(1)}.${m[1]}`
}

/** Field names whose values are secrets (password hashes, token values, webhook secrets, keys). */
const SECRET_NAME = /password|secret|token$|^token|signup.?key|hash|private.?key|credential/i
/** A Ferry API token's value, wherever it turns up. */
const TOKEN_VALUE = /^ferry_[0-9A-Za-z]{16,}$/

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A copy of `value` with every secret member left out and token values masked, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === 'string') return TOKEN_VALUE.test(value) ? '[redacted]' : value
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(value)) {
    if (!SECRET_NAME.test(name)) out[name] = withoutSecrets(member)
  }
  return out
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The changes of a write: each member the JSON body sets, `from` its value before when the
 * handler noted it; members that did not change are left out, and secrets never appear.
 */
export function changesOf(body: unknown, note: AuditNote | undefined): AuditChanges {
  const changes: AuditChanges = {}
  if (isRecord(body)) {
    for (const [name, to] of Object.entries(body)) {
      if (SECRET_NAME.test(name)) continue
      const before = note?.before
      if (before && name in before) {
        if (same(before[name], to)) continue
        changes[name] = { from: withoutSecrets(before[name]), to: withoutSecrets(to) }
      } else {
        changes[name] = { to: withoutSecrets(to) }
      }
    }
  }
  for (const [name, change] of Object.entries(note?.changes ?? {})) {
    if (!SECRET_NAME.test(name))
      changes[name] = {
        ...('from' in change ? { from: withoutSecrets(change.from) } : {}),
        ...('to' in change ? { to: withoutSecrets(change.to) } : {}),
      }
  }
  return changes
}

/** The changes of a delete: each member of what was removed, as it was. */
export function removedChanges(values: Record<string, unknown>): AuditChanges {
  return Object.fromEntries(Object.entries(values).map(([name, from]) => [name, { from }]))
}

/** Collections in a path and the object type they hold. */
const OBJECTS: Record<string, string> = {
  apps: 'app',
  versions: 'version',
  artifacts: 'artifact',
  channels: 'channel',
  platforms: 'platform',
  archs: 'arch',
  users: 'user',
  tokens: 'token',
  webhooks: 'webhook',
  deliveries: 'delivery',
}

/**
 * The target named by an operation's path: the last collection in it and the parameter after
 * that (`/v1/apps/{app}/versions/{version}/pause` → version `{version}`). A create names no id
 * (`/v1/apps`); the caller takes it from the response. Paths without a collection target the team.
 */
export function targetOfPath(path: string, params: Record<string, string>): { type: string; id: string | null } {
  let type: string | undefined
  let id: string | null = null
  for (const segment of path.split('/').slice(2)) {
    const param = /^\{(.+)\}$/.exec(segment)?.[1]
    if (param !== undefined) {
      if (type) id = params[param] ?? null
    } else if (OBJECTS[segment]) {
      type = OBJECTS[segment]
      id = null
    }
  }
  return type ? { type, id } : { type: 'team', id: null }
}
