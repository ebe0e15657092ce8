/**
 * @module The breaking-change gate: the current contract against the newest frozen snapshot.
 * It fails when a breaking change comes without the `info.version` bump `version-rule.ts`
 * asks for, naming each breaking change by operation, place, and file:line:column.
 */
import type { LoadedSpec } from '../codegen/load.ts'
import { diffContracts, type ContractChange } from './changes.ts'
import type { FrozenRelease } from './history.ts'
import { versionProblem } from './version-rule.ts'

export interface GateResult {
  ok: boolean
  /** The frozen release compared with, if any. */
  against?: string
  breaking: ContractChange[]
  /** One line per problem; empty when ok. */
  problems: string[]
}

type Doc = Record<string, unknown>
const versionOf = (spec: LoadedSpec): string => String((spec.raw.info as Doc | undefined)?.version ?? '')

/** Where a change is, as `file:line:col at pointer: METHOD /path (operationId): place what`. */
export function describeChange(change: ContractChange, before: LoadedSpec, after: LoadedSpec): string {
  const spec = change.side === 'before' ? before : after
  const operation = (
    ((spec.raw.paths as Doc)[change.path] as Doc | undefined)?.[change.method.toLowerCase()] as Doc | undefined
  )?.operationId
  const place =
    change.location === 'operation'
      ? 'operation'
      : `${change.location}${change.member ? ` member \`${change.member}\`` : ''}`
  return spec.errorAt(
    change.pointer,
    `${change.method} ${change.path}${operation ? ` (${String(operation)})` : ''}: ${place} ${change.what}`,
  ).message
}

export function checkBreakingChanges(current: LoadedSpec, history: readonly FrozenRelease[]): GateResult {
  const newest = history[0]
  if (!newest) return { ok: true, breaking: [], problems: [] }
  // A breaking change the contract lists as accepted since this release is shown, not counted.
  const breaking = diffContracts(newest.spec.raw, current.raw, newest.id).filter((c) => c.breaking && !c.accepted)
  const problem = versionProblem(versionOf(newest.spec), versionOf(current), breaking.length > 0)
  if (!problem) return { ok: true, against: newest.id, breaking, problems: [] }
  const where = current.errorAt('#/info/version', problem).message
  return {
    ok: false,
    against: newest.id,
    breaking,
    problems: [where, ...breaking.map((c) => `  breaking: ${describeChange(c, newest.spec, current)}`)],
  }
}
