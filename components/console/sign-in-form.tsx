import { useId, useState, type FormEvent } from 'react'
import { ProblemView } from '../demo/problem-view'
import { ferryApi, type Problem, type Transport } from '../demo/sandbox-api'
import { asProblem } from '../demo/use-ferry-data'
import type { Session } from './session'

/** Email and password, sent to POST /v1/auth/login; the answer is the session. */
export function SignInForm({
  transport,
  onSignedIn,
  email: knownEmail,
}: {
  transport: Transport
  onSignedIn: (session: Session) => void
  email?: string
}) {
  const id = useId()
  const [email, setEmail] = useState(knownEmail ?? '')
  const [password, setPassword] = useState('')
  const [problem, setProblem] = useState<Problem>()
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      onSignedIn(await ferryApi(transport).login(email, password))
    } catch (error) {
      setProblem(asProblem(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="ferry-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sign in</h2>
      <label htmlFor={`${id}-email`}>Email</label>
      <input
        id={`${id}-email`}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        autoComplete="username"
        required
      />
      <label htmlFor={`${id}-password`}>Password</label>
      <input
        id={`${id}-password`}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        required
      />
      <button type="submit" className="ferry-btn ferry-btn-primary" disabled={busy}>
        Sign in
      </button>
      {problem ? <ProblemView problem={problem} /> : null}
    </form>
  )
}
