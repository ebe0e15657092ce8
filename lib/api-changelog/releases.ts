/**
 * @module The changelog: per release, newest first, the operations added, changed and removed,
 * with each change's lines grouped (one line per place and kind of change, listing the members
 * it touched). "Unreleased" compares the current contract with the newest frozen snapshot; each
 * frozen release compares its snapshot with the one before it.
 */
import { METHODS } from '../codegen/transform/operation.ts'
import { diffContracts, type Action, type ContractChange } from './changes.ts'
import type { FrozenRelease } from './history.ts'

/** An operation's page, from the codegen's own routes (`OperationModel.route`). */
export interface OperationPage {
  operationId: string
  summary: string
  route: string
}

/** `METHOD /path` → its page in the current reference. */
export type RouteTable = ReadonlyMap<string, OperationPage>

export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`

export interface ChangeLine {
  location: string
  what: string
  members: string[]
  breaking: boolean
  policy?: string
  policyBreaking?: string
  accepted?: string
}

export interface OperationChanges {
  method: string
  path: string
  /** Absent for an operation that no longer exists (no page to link). */
  page?: OperationPage
  status: Action
  breaking: boolean
  lines: ChangeLine[]
  /** The raw changes, for the gate's messages. */
  changes: ContractChange[]
}

export interface ReleaseNotes {
  /** `unreleased` or the frozen version's id. */
  id: string
  title: string
  /** YYYY-MM-DD the release was frozen; absent for unreleased changes. */
  date?: string
  /** Label of the release compared with; absent for the first frozen release. */
  since?: string
  versions: { from?: string; to: string }
  operations: OperationChanges[]
  breaking: number
  /** For the first frozen release, which has nothing to compare with: how many operations it had. */
  baseline?: number
}

const STATUS_ORDER: Record<Action, number> = { added: 0, changed: 1, removed: 2 }

function groupLines(changes: ContractChange[]): ChangeLine[] {
  const lines = new Map<string, ChangeLine>()
  for (const change of changes) {
    const key = JSON.stringify([
      change.location,
      change.what,
      change.breaking,
      change.policy ?? '',
      change.policyBreaking ?? '',
      change.accepted ?? '',
    ])
    const line = lines.get(key) ?? {
      location: change.location,
      what: change.what,
      members: [],
      breaking: change.breaking,
      ...(change.policy ? { policy: change.policy } : {}),
      ...(change.policyBreaking ? { policyBreaking: change.policyBreaking } : {}),
      ...(change.accepted ? { accepted: change.accepted } : {}),
    }
    if (change.member && !line.members.includes(change.member)) line.members.push(change.member)
    lines.set(key, line)
  }
  return [...lines.values()].sort(
    (a, b) =>
      Number(b.breaking) - Number(a.breaking) ||
      a.location.localeCompare(b.location, 'en') ||
      a.what.localeCompare(b.what, 'en'),
  )
}

/** Groups a diff's changes by operation; an operation added or removed whole lists no lines. */
export function operationChanges(changes: ContractChange[], routes: RouteTable): OperationChanges[] {
  const byOperation = new Map<string, ContractChange[]>()
  for (const change of changes) {
    const key = operationKey(change.method, change.path)
    byOperation.set(key, [...(byOperation.get(key) ?? []), change])
  }
  const operations: OperationChanges[] = []
  for (const [key, list] of byOperation) {
    const whole = list.find((c) => c.scope === 'operation' && c.location === 'operation' && c.action !== 'changed')
    const status: Action = whole?.action ?? 'changed'
    const page = status === 'removed' ? undefined : routes.get(key)
    operations.push({
      method: list[0]!.method,
      path: list[0]!.path,
      ...(page ? { page } : {}),
      status,
      breaking: list.some((c) => c.breaking),
      lines: whole ? [] : groupLines(list),
      changes: whole ? [whole] : list,
    })
  }
  return operations.sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      a.path.localeCompare(b.path, 'en') ||
      a.method.localeCompare(b.method, 'en'),
  )
}

type Doc = Record<string, unknown>
const infoVersion = (doc: Doc): string => String((doc.info as Doc | undefined)?.version ?? '')
const countOperations = (doc: Doc): number =>
  Object.values((doc.paths ?? {}) as Record<string, Doc>).reduce(
    (n, item) => n + METHODS.filter((m) => item[m]).length,
    0,
  )

function notes(
  id: string,
  title: string,
  before: Doc | undefined,
  after: Doc,
  routes: RouteTable,
  date?: string,
  since?: string,
  sinceId?: string,
): ReleaseNotes {
  const operations = before ? operationChanges(diffContracts(before, after, sinceId), routes) : []
  return {
    id,
    title,
    ...(date ? { date } : {}),
    ...(since ? { since } : {}),
    versions: { ...(before ? { from: infoVersion(before) } : {}), to: infoVersion(after) },
    operations,
    breaking: operations.filter((op) => op.breaking).length,
    ...(before ? {} : { baseline: countOperations(after) }),
  }
}

/** Unreleased first, then each frozen release (newest first) against the one before it. */
export function buildChangelog(current: Doc, history: readonly FrozenRelease[], routes: RouteTable): ReleaseNotes[] {
  const releases: ReleaseNotes[] = []
  const newest = history[0]
  releases.push(
    notes('unreleased', 'Unreleased', newest?.spec.raw, current, routes, undefined, newest?.label, newest?.id),
  )
  history.forEach((release, index) => {
    const previous = history[index + 1]
    releases.push(
      notes(
        release.id,
        `Version ${release.label}`,
        previous?.spec.raw,
        release.spec.raw,
        routes,
        release.frozen,
        previous?.label,
        previous?.id,
      ),
    )
  })
  return releases
}

/** The route table of the reference `npm run gen` writes. */
export function routeTable(
  operations: Iterable<{ method: string; path: string; operationId: string; summary: string; route: string }>,
): RouteTable {
  const table = new Map<string, OperationPage>()
  for (const op of operations)
    table.set(operationKey(op.method, op.path), { operationId: op.operationId, summary: op.summary, route: op.route })
  return table
}
