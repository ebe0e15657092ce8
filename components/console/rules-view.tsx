import { useId, useState, type FormEvent } from 'react'
import { loadedOr, useLoad } from '../demo/use-load'
import type { App, FerryApi, Rule, RuleCreate } from '../demo/sandbox-api'

type Run = (done: string, action: (api: FerryApi) => Promise<unknown>) => Promise<boolean>

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** One line saying what a rule does. */
function summary(r: Rule): string {
  if (r.kind === 'hold') return `Hold of ${r.cohort ? `cohort ${r.cohort}` : 'every device'}: nothing newer is offered`
  if (r.kind === 'pin') return `Cohort ${r.cohort ?? ''} pinned to ${r.range ?? ''}`
  const who = [
    r.cohorts ? `cohorts ${r.cohorts.join(', ')}` : '',
    r.devices ? `${r.devices.length} device ids` : '',
    r.conditions ? `${r.conditions.length} attribute conditions` : '',
  ].filter(Boolean)
  return `${r.version ?? ''} only for ${who.join(' and ') || 'devices not denied'}${r.deny ? `, ${r.deny.length} denied` : ''}`
}

/** The app's holds, pins and targeting rules: each with what it does, and (for those who may edit the app) hold, pin or delete. */
export function RulesView({
  api,
  app,
  run,
  generation,
  canEdit,
}: {
  api: FerryApi
  app: App
  run: Run
  generation: number
  canEdit: boolean
}) {
  const id = useId()
  const rules = loadedOr(
    useLoad(() => api.listRules(app.slug), [api, app.slug, generation]),
    [],
  )
  return (
    <section aria-labelledby={`${id}-title`} className="ferry-console-view">
      <h2 id={`${id}-title`}>Holds and pins of {app.name}</h2>
      <p className="ferry-muted">
        Rules act on every update check of {app.name}: a hold offers nothing newer, a pin keeps a cohort within a
        version range, targeting offers a version to some devices only.
      </p>
      {rules === undefined ? <p role="status">Loading rules…</p> : rules.length === 0 ? <p>No rules.</p> : null}
      <ul className="ferry-version-list">
        {(rules ?? []).map((r) => (
          <li key={r.id} className="ferry-version" aria-label={summary(r)}>
            <div className="ferry-version-head">
              <strong className="ferry-console-break">{summary(r)}</strong>
              <span className={r.kind === 'hold' ? 'ferry-tag ferry-tag-warn' : 'ferry-tag'}>{r.kind}</span>
            </div>
            {r.reason ? <p>{r.reason}</p> : null}
            <p className="ferry-muted">{r.expiresAt ? `Until ${when(r.expiresAt)}` : 'No expiry'}</p>
            {canEdit ? (
              <div className="ferry-version-actions">
                <button
                  type="button"
                  className="ferry-btn"
                  onClick={() => run(`Deleted the ${r.kind}.`, (a) => a.deleteRule(app.slug, r.id))}
                >
                  Delete<span className="ferry-sr-only"> {summary(r)}</span>
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? <CreateRuleForm app={app} run={run} /> : null}
    </section>
  )
}

function CreateRuleForm({ app, run }: { app: App; run: Run }) {
  const id = useId()
  const [kind, setKind] = useState<'hold' | 'pin'>('hold')
  const [cohort, setCohort] = useState('')
  const [range, setRange] = useState('')
  const [reason, setReason] = useState('')
  const [until, setUntil] = useState('')
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const body: RuleCreate =
      kind === 'pin'
        ? { kind, cohort, range, ...(reason ? { reason } : {}) }
        : {
            kind,
            reason,
            ...(cohort ? { cohort } : {}),
            ...(until ? { expiresAt: new Date(until).toISOString() } : {}),
          }
    const ok = await run(kind === 'pin' ? `Pinned ${cohort} to ${range}.` : 'Hold created.', (a) =>
      a.createRule(app.slug, body),
    )
    if (ok) {
      setCohort('')
      setRange('')
      setReason('')
      setUntil('')
    }
  }
  return (
    <form className="ferry-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Hold or pin</h3>
      <label htmlFor={`${id}-kind`}>Rule</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value === 'pin' ? 'pin' : 'hold')}>
        <option value="hold">Hold: offer nothing newer</option>
        <option value="pin">Pin a cohort to a version range</option>
      </select>
      <label htmlFor={`${id}-cohort`}>{kind === 'pin' ? 'Cohort' : 'Cohort (empty: every device)'}</label>
      <input
        id={`${id}-cohort`}
        value={cohort}
        onChange={(e) => setCohort(e.target.value)}
        pattern="[A-Za-z0-9._:\-]{1,64}"
        autoComplete="off"
        required={kind === 'pin'}
      />
      {kind === 'pin' ? (
        <>
          <label htmlFor={`${id}-range`}>Version range (semver, for example 1.4.x)</label>
          <input
            id={`${id}-range`}
            value={range}
            onChange={(e) => setRange(e.target.value)}
            autoComplete="off"
            required
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-until`}>Until (empty: until deleted)</label>
          <input id={`${id}-until`} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </>
      )}
      <label htmlFor={`${id}-reason`}>{kind === 'hold' ? 'Reason' : 'Reason (optional)'}</label>
      <input
        id={`${id}-reason`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={500}
        autoComplete="off"
        required={kind === 'hold'}
      />
      <button type="submit" className="ferry-btn ferry-btn-primary">
        {kind === 'pin' ? 'Pin' : 'Hold'}
      </button>
    </form>
  )
}
