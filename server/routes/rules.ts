/**
 * @module An app's holds, pins and targeting rules as API resources: list, create (each kind's
 * members checked, 400s naming the member), delete. What they do to update checks is
 * `server/updates/rules.ts`'s; the write unit records the audit entry and the webhook event.
 */
import { currentUser } from '../auth/auth-user.ts'
import { randomId } from '../core/crypto.ts'
import { conflict, notFound, validationProblem } from '../core/problem.ts'
import type { UpdateRulesTable } from '../core/storage.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import type { Schemas } from '../http/spec.ts'
import { removedChanges } from '../audit/entry.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { countRules, deleteRule, findRule, insertRule, rulesOf } from '../storage/releases/update-rules.ts'
import { isRange, toRule } from '../updates/rules.ts'
import { findTeamApp } from './api-objects.ts'

/** Rules an app holds at most: each update check of the app reads them all. */
export const MAX_RULES_PER_APP = 200

type RuleCreate = Schemas['RuleCreate']

/** The members each kind takes; any other is a 400 naming it. */
const MEMBERS: Record<RuleCreate['kind'], ReadonlyArray<keyof RuleCreate>> = {
  hold: ['kind', 'cohort', 'reason', 'expiresAt'],
  pin: ['kind', 'cohort', 'range', 'reason', 'expiresAt'],
  target: ['kind', 'version', 'cohorts', 'devices', 'deny', 'conditions', 'reason', 'expiresAt'],
}

/** The 400s of a rule whose members do not fit its kind, or whose ranges are no semver ranges. */
function problemsOf(body: RuleCreate, now: Date): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = []
  const allowed = MEMBERS[body.kind]
  for (const name of Object.keys(body))
    if (!allowed.some((m) => m === name)) out.push({ field: `/${name}`, message: `does not apply to a ${body.kind}` })
  if (body.kind === 'hold' && body.reason === undefined)
    out.push({ field: '/reason', message: 'is required for a hold' })
  if (body.kind === 'pin') {
    if (body.cohort === undefined) out.push({ field: '/cohort', message: 'is required for a pin' })
    if (body.range === undefined) out.push({ field: '/range', message: 'is required for a pin' })
    else if (!isRange(body.range)) out.push({ field: '/range', message: 'is not a semver range (for example 1.4.x)' })
  }
  if (body.kind === 'target') {
    if (body.version === undefined) out.push({ field: '/version', message: 'is required for a targeting rule' })
    if (!body.cohorts && !body.devices && !body.deny && !body.conditions)
      out.push({ field: '/cohorts', message: 'or devices, deny or conditions: a targeting rule needs at least one' })
    body.conditions?.forEach((c, i) => {
      if (c.range !== undefined && !isRange(c.range))
        out.push({ field: `/conditions/${i}/range`, message: 'is not a semver range' })
      if (c.equals === undefined && c.oneOf === undefined && c.range === undefined)
        out.push({ field: `/conditions/${i}`, message: 'needs one of equals, oneOf and range' })
    })
  }
  if (body.expiresAt !== undefined && Date.parse(body.expiresAt) <= now.getTime())
    out.push({ field: '/expiresAt', message: 'is in the past' })
  return out
}

/** The stored row of a rule to create. */
function rowOf(app: string, body: RuleCreate, by: string, at: string): UpdateRulesTable {
  const { cohorts, devices, deny, conditions } = body
  const criteria = body.kind === 'target' ? JSON.stringify({ cohorts, devices, deny, conditions }) : null
  return {
    id: randomId('rul'),
    app_slug: app,
    kind: body.kind,
    cohort: body.cohort ?? null,
    version_range: body.range ?? null,
    version: body.version ?? null,
    criteria,
    reason: body.reason ?? null,
    expires_at: body.expiresAt === undefined ? null : new Date(body.expiresAt).toISOString(),
    created_at: at,
    created_by: by,
  }
}

export function ruleHandlers(s: Services): Pick<Handlers, 'listRules' | 'createRule' | 'deleteRule'> {
  return {
    async listRules(c, { path }, respond) {
      const app = await findTeamApp(s, currentUser(c.get('user')), path.app)
      return respond(200, { items: (await rulesOf(s.db, app.slug)).map(toRule) })
    },

    async createRule(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      const now = s.now()
      const problems = problemsOf(body, now)
      if (problems.length) throw validationProblem(problems)
      if ((await countRules(s.db, app.slug)) >= MAX_RULES_PER_APP)
        throw conflict(`An app holds at most ${MAX_RULES_PER_APP} rules; delete one first.`)
      const row = rowOf(app.slug, body, user.id, now.toISOString())
      await commitWrite(s, c, async (trx) => {
        await insertRule(trx, row)
        noteAudit(c, { created: toRule(row) })
      })
      s.logger.info({ app: app.slug, rule: row.id, kind: row.kind, by: user.id }, 'update rule created')
      return respond(201, toRule(row))
    },

    async deleteRule(c, { path }) {
      const app = await findTeamApp(s, currentUser(c.get('user')), path.app)
      const row = await findRule(s.db, app.slug, path.rule)
      if (!row) throw notFound(`No rule ${path.rule} of app ${app.slug}.`)
      await commitWrite(s, c, async (trx) => {
        noteAudit(c, { changes: removedChanges({ kind: row.kind, cohort: row.cohort }) })
        await deleteRule(trx, app.slug, row.id)
      })
      return noContent()
    },
  }
}
