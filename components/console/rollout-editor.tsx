import { useId, useState, type FormEvent } from 'react'
import { releaseName } from '../demo/release-status'
import type { App, Version } from '../demo/sandbox-api'
import { DestructiveConfirm } from '../demo/version-list'
import styles from '../demo/releases.module.css'

import type { Run } from '../demo/use-ferry-data'
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
const steps = (...pairs: Array<[number, number]>): Step[] =>
  pairs.map(([p, m]) => ({ percentage: String(p), afterMinutes: String(m) }))
/** Ramps people start from: share and minutes after the previous step. */
const PRESETS: Array<[string, Step[]]> = [
  ['Cautious: 1 → 10 → 50 → 100 %, a day apart', steps([1, 0], [10, 1440], [50, 1440], [100, 1440])],
  ['Standard: 5 → 25 → 100 %', steps([5, 0], [25, 60], [100, 1440])],
  ['Fast: 10 → 50 → 100 %, 30 minutes apart', steps([10, 0], [50, 30], [100, 30])],
]
const FIRST = PRESETS[1]![1]

/** The form's figures from the version's ramp, if it has one, so editing starts from what is running. */
const fromRamp = (v: Version): { plan: Step[]; gate: Gate } => {
  const ramp = v.rollout.ramp
  if (!ramp) return { plan: FIRST, gate: NO_GATE }
  const g = ramp.gate
  return {
    plan: steps(...ramp.steps.map((s): [number, number] => [s.percentage, s.afterMinutes])),
    gate: g
      ? {
          on: true,
          minInstalls: String(g.minInstalls),
          maxFailurePercent: String(Math.round(g.maxFailureRatio * 1000) / 10),
          deadlineHours: String(Math.round((g.deadlineMinutes / 60) * 10) / 10),
        }
      : NO_GATE,
  }
}

/**
 * One version's rollout, edited on its card: a ramp of steps (share, minutes after the previous
 * one) with presets and an optional health gate, and pause, resume or pull with a reason.
 */
export function RolloutEditor({ app, version: v, run }: { app: App; version: Version; run: Run }) {
  const id = useId()
  const [plan, setPlan] = useState<Step[]>(() => fromRamp(v).plan)
  const [reason, setReason] = useState('')
  const [gate, setGate] = useState<Gate>(() => fromRamp(v).gate)
  const [pulling, setPulling] = useState(false)
  const what = releaseName(v)
  const setStep = (i: number, next: Partial<Step>) =>
    setPlan((all) => all.map((s, j) => (j === i ? { ...s, ...next } : s)))
  const startRamp = (e: FormEvent) => {
    e.preventDefault()
    const ramp = {
      steps: plan.map((s) => ({ percentage: Number(s.percentage), afterMinutes: Number(s.afterMinutes) })),
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
  const gateField = (key: 'minInstalls' | 'maxFailurePercent' | 'deadlineHours', label: string, min: number) => (
    <div>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="number"
        min={min}
        step="any"
        value={gate[key]}
        onChange={(e) => setGate((g) => ({ ...g, [key]: e.target.value }))}
      />
    </div>
  )
  return (
    <section className={styles.editor} aria-label={`Rollout of ${what}`}>
      <form onSubmit={startRamp} aria-label="Ramp" className={styles.editorForm}>
        <div className={styles.editorLine} role="group" aria-label="Presets">
          <span className="ferry-muted">Presets:</span>
          {PRESETS.map(([name, preset]) => (
            <button key={name} type="button" className="ferry-btn" onClick={() => setPlan(preset)}>
              {name.split(':')[0]}
              <span className="ferry-sr-only">{name.slice(name.indexOf(':'))}</span>
            </button>
          ))}
        </div>
        <ol className={styles.steps} aria-label="Ramp steps">
          {plan.map((s, i) => (
            <li key={i} className={styles.step}>
              <label htmlFor={`${id}-p${i}`}>
                <span className="ferry-sr-only">Step {i + 1}: </span>share %
              </label>
              <input
                id={`${id}-p${i}`}
                type="number"
                min={0}
                max={100}
                value={s.percentage}
                onChange={(e) => setStep(i, { percentage: e.target.value })}
              />
              <label htmlFor={`${id}-m${i}`}>
                <span className="ferry-sr-only">Step {i + 1}: </span>minutes after
                <span className="ferry-sr-only"> the previous step</span>
              </label>
              <input
                id={`${id}-m${i}`}
                type="number"
                min={0}
                value={s.afterMinutes}
                onChange={(e) => setStep(i, { afterMinutes: e.target.value })}
              />
              {plan.length > 1 ? (
                <button
                  type="button"
                  className={`ferry-link-btn ${styles.remove}`}
                  onClick={() => setPlan((all) => all.filter((_, j) => j !== i))}
                >
                  Remove<span className="ferry-sr-only"> step {i + 1}</span>
                </button>
              ) : null}
            </li>
          ))}
          <li>
            <button
              type="button"
              className="ferry-btn"
              onClick={() => setPlan((all) => [...all, { percentage: '100', afterMinutes: '60' }])}
            >
              Add a step
            </button>
          </li>
        </ol>
        <fieldset className={styles.gateFields}>
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
              {gateField('minInstalls', 'Installs reported before the next step', 1)}
              {gateField('maxFailurePercent', 'Largest failure share %', 0)}
              {gateField('deadlineHours', 'Hours a hold may last before the rollout pauses', 1)}
            </>
          ) : null}
        </fieldset>
        <GateState version={v} />
        <div>
          <button type="submit" className="ferry-btn ferry-btn-primary">
            Save ramp
          </button>
        </div>
      </form>
      <div className={styles.editorLine}>
        <label htmlFor={`${id}-reason`}>Reason (shown with the version)</label>
        <input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
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
            onClick={() =>
              run(`Paused ${what}.`, (api) => api.pauseVersion(app.slug, v.id, why), {
                done: `Resumed ${what}.`,
                action: (api) => api.resumeVersion(app.slug, v.id),
              })
            }
          >
            Pause with reason
          </button>
        )}
        {v.rollout.pulled ? null : (
          <button type="button" className="ferry-btn ferry-btn-danger" onClick={() => setPulling(true)}>
            Pull with reason…
          </button>
        )}
      </div>
      {pulling ? (
        <DestructiveConfirm
          app={app}
          confirmation={{ kind: 'pull', version: v, reason: why }}
          run={run}
          api={undefined}
          onClose={() => setPulling(false)}
        />
      ) : null}
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
