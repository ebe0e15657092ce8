import { useState } from 'react'
import { DEMO_LOGIN, DEMO_USER } from '../../server/demo/seed.ts'
import { DashboardBody } from './dashboard-body'
import { useSandbox } from './use-sandbox'

/**
 * The Demo Dashboard. The shell (this text, the login, the loading state) is in the static
 * HTML; the sandbox it drives loads after the first render.
 */
export function DemoDashboard() {
  const { status, retry } = useSandbox()
  const [resetting, setResetting] = useState(false)
  const [resetDone, setResetDone] = useState(false)
  const reset = async () => {
    if (status.state !== 'ready') return
    setResetting(true)
    setResetDone(false)
    try {
      await status.sandbox.reset()
      setResetDone(true)
    } finally {
      setResetting(false)
    }
  }
  return (
    <section aria-labelledby="dashboard-title" className="ferry-dash">
      <div className="ferry-dash-head">
        <h2 id="dashboard-title">Dashboard</h2>
        <button type="button" className="ferry-btn" onClick={reset} disabled={status.state !== 'ready' || resetting}>
          Reset sandbox
        </button>
      </div>
      <p className="ferry-dash-login">
        Signed in as the demo team admin <code>{DEMO_LOGIN.email}</code> (password <code>{DEMO_LOGIN.password}</code>).
        A team user who may upload only Harbor Notes: <code>{DEMO_USER.email}</code> / <code>{DEMO_USER.password}</code>
        .
      </p>
      {status.state === 'starting' ? (
        <p className="ferry-demo-loading" role="status">
          <span className="ferry-spinner" aria-hidden="true" /> Starting the sandbox (Ferry&apos;s API and its database,
          in this browser)…
        </p>
      ) : status.state === 'failed' ? (
        <div className="ferry-problem" role="alert">
          <p>
            <strong>The sandbox could not start.</strong> {status.message}
          </p>
          <button type="button" className="ferry-btn" onClick={retry}>
            Retry
          </button>
        </div>
      ) : (
        <DashboardBody sandbox={status.sandbox} resetting={resetting} resetDone={resetDone} />
      )}
    </section>
  )
}
