import { useId, useState, type FormEvent } from 'react'
import type { App, FerryApi, Version } from '../demo/sandbox-api'

type Run = (done: string, action: (api: FerryApi) => Promise<unknown>) => Promise<boolean>
interface Step {
  percentage: string
  afterMinutes: string
}
interface Gate {
  on: boolean
  minInstalls: string
  maxFailurePercent: string
  deadlineHours: string
}

const NO_GATE: Gate = { on: false, minInstalls: '50', maxFailurePercent: '5', deadlineHours: '168' }
const FIRST: Step[] = [
  { percentage: '5', afterMinutes: '0' },
  { percentage: '25', afterMinutes: '60' },
  { percentage: '100', afterMinutes: '1440' },
]

/** A version's rollout: a ramp of steps (share, minutes after the previous one), and pause or pull with a reason. */
export function RolloutEditor({ app, versions, run }: { app: App; versions: Version[]; run: Run }) {
  const id = useId()
  const [versionId, setVersionId] = useState('')
  const [steps, setSteps] = useState<Step[]>(FIRST)
  const [reason, setReason] = useState('')
  const [gate, setGate] = useState<Gate>(NO_GATE)
  const v = versions.find((x) => x.id === versionId) ?? versions[0]
  if (!v) return null
  const what = `${v.version} (${v.channel}, ${v.platform}/${v.arch})`
  const setStep = (i: number, next: Partial<Step>) =>
    setSteps((all) => all.map((s, j) => (j === i ? { ...s, ...next } : s)))
  const startRamp = (e: FormEvent) => {
    e.preventDefault()
    const ramp = {
      steps: steps.map((s) => ({ percentage: Number(s.percentage), afterMinutes: Number(s.afterMinutes) })),
      ...(gate.on
        ? {
            gate: {
              minInstalls: Number(gate.minInstalls),
              maxFailureRatio: Number(gate.maxFailurePercent) / 100,
              deadlineMinutes: Math.round(Number(gate.deadlineHours) * 60),
            },
          }
        : {}),
    }
    const gated = gate.on
      ? `, each step after ${gate.minInstalls} installs at ≤ ${gate.maxFailurePercent} % failures`
      : ''
    void run(`Set the ramp of ${what}: ${ramp.steps.map((s) => `${s.percentage} %`).join(' → ')}${gated}.`, (api) =>
      api.updateVersion(app.slug, v.id, { ramp }),
    )
  }
  const why = reason.trim() || undefined
  return (
    <section className="ferry-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Rollout</h3>
      <label htmlFor={`${id}-version`}>Version</label>
      <select id={`${id}-version`} value={v.id} onChange={(e) => setVersionId(e.target.value)}>
        {versions.map((x) => (
          <option key={x.id} value={x.id}>
            {x.version} ({x.channel}, {x.platform}/{x.arch})
          </option>
        ))}
      </select>
      <form onSubmit={startRamp} aria-label="Ramp">
        <h4>Ramp steps</h4>
        <ol className="ferry-console-steps">
          {steps.map((s, i) => (
            <li key={i}>
              <label htmlFor={`${id}-p${i}`}>Step {i + 1}: share %</label>
              <input
                id={`${id}-p${i}`}
                type="number"
                min={0}
                max={100}
                value={s.percentage}
                onChange={(e) => setStep(i, { percentage: e.target.value })}
              />
              <label htmlFor={`${id}-m${i}`}>Step {i + 1}: minutes after the previous step</label>
              <input
                id={`${id}-m${i}`}
                type="number"
                min={0}
                value={s.afterMinutes}
                onChange={(e) => setStep(i, { afterMinutes: e.target.value })}
              />
              {steps.length > 1 ? (
                <button
                  type="button"
                  className="ferry-btn"
                  onClick={() => setSteps((all) => all.filter((_, j) => j !== i))}
                >
                  Remove step {i + 1}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="ferry-btn"
          onClick={() => setSteps((all) => [...all, { percentage: '100', afterMinutes: '60' }])}
        >
          Add a step
        </button>
        <fieldset className="ferry-console-gate">
          <legend>Health gate</legend>
          <label className="ferry-check">
            <input
              type="checkbox"
              checked={gate.on}
              onChange={(e) => setGate((g) => ({ ...g, on: e.target.checked }))}
            />{' '}
            Each step waits for evidence
          </label>
          {gate.on ? (
            <>
              <label htmlFor={`${id}-gi`}>Installs reported before the next step</label>
              <input
                id={`${id}-gi`}
                type="number"
                min={1}
                value={gate.minInstalls}
                onChange={(e) => setGate((g) => ({ ...g, minInstalls: e.target.value }))}
              />
              <label htmlFor={`${id}-gf`}>Largest failure share %</label>
              <input
                id={`${id}-gf`}
                type="number"
                min={0}
                max={100}
                step="any"
                value={gate.maxFailurePercent}
                onChange={(e) => setGate((g) => ({ ...g, maxFailurePercent: e.target.value }))}
              />
              <label htmlFor={`${id}-gd`}>Hours a hold may last before the rollout pauses</label>
              <input
                id={`${id}-gd`}
                type="number"
                min={1}
                step="any"
                value={gate.deadlineHours}
                onChange={(e) => setGate((g) => ({ ...g, deadlineHours: e.target.value }))}
              />
            </>
          ) : null}
        </fieldset>
        <GateState version={v} />
        <button type="submit" className="ferry-btn ferry-btn-primary">
          Save ramp
        </button>
      </form>
      <label htmlFor={`${id}-reason`}>Reason (shown with the version)</label>
      <input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
      <div className="ferry-version-actions">
        {v.rollout.paused || v.rollout.pulled ? (
          <button
            type="button"
            className="ferry-btn"
            onClick={() => run(`Resumed ${what}.`, (api) => api.resumeVersion(app.slug, v.id))}
          >
            Resume
          </button>
        ) : (
          <button
            type="button"
            className="ferry-btn"
            onClick={() => run(`Paused ${what}.`, (api) => api.pauseVersion(app.slug, v.id, why))}
          >
            Pause with reason
          </button>
        )}
        {v.rollout.pulled ? null : (
          <button
            type="button"
            className="ferry-btn ferry-btn-danger"
            onClick={() => run(`Pulled ${what}.`, (api) => api.pullVersion(app.slug, v.id, why))}
          >
            Pull with reason
          </button>
        )}
      </div>
    </section>
  )
}

/** Where the version's gate stands: holding (and why, until when) or met. */
function GateState({ version: v }: { version: Version }) {
  const gate = v.rollout.ramp?.gate
  if (!gate)
    return (
      <p role="status" className="ferry-muted">
        Its ramp has no gate: steps follow the clock.
      </p>
    )
  const rule = `needs ${gate.minInstalls} installs at ≤ ${Math.round(gate.maxFailureRatio * 1000) / 10} % failures`
  if (gate.holding) {
    const h = gate.holding
    return (
      <p role="status" className="ferry-console-gate-state">
        {h.expired ? 'Held past its deadline, so the rollout paused' : `Holds before step ${h.step + 1}`}: {h.reason} (
        {rule}; deadline {new Date(h.deadline).toLocaleString()}).
      </p>
    )
  }
  return (
    <p role="status" className="ferry-console-gate-state">
      Gate {gate.met ? 'met' : 'not met yet'}: {gate.installs} of {gate.minInstalls} installs reported ({rule}).
    </p>
  )
}
