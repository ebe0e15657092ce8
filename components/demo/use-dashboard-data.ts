import { useEffect, useMemo, useState } from 'react'
import { SANDBOX_ORIGIN, type SandboxClient } from './sandbox-loader'
import { ferryApi, type FerryApi, type Transport } from './sandbox-api'
import { asProblem, useFerryData } from './use-ferry-data'

export type { Notice } from './use-ferry-data'

export type Persistence = 'unsaved' | 'saved' | 'reset' | { failed: string }

/** The sandbox as a transport: requests to its origin are answered in the browser. */
export const sandboxTransport = (sandbox: SandboxClient): Transport => ({
  origin: SANDBOX_ORIGIN,
  fetch: (request) => sandbox.fetch(request),
})

/**
 * The dashboard's view of the sandbox: signs in as the demo admin through the API, and reloads
 * whenever anything (this dashboard or a "Try it out" in the reference) changes the sandbox.
 */
export function useDashboardData(sandbox: SandboxClient) {
  const [session, setSession] = useState(0)
  const [token, setToken] = useState<string>()
  const [persistence, setPersistence] = useState<Persistence>('unsaved')
  const transport = useMemo(() => sandboxTransport(sandbox), [sandbox])
  const api: FerryApi | undefined = useMemo(() => (token ? ferryApi(transport, token) : undefined), [transport, token])
  const data = useFerryData(api)
  const { refresh, setNotice } = data

  useEffect(
    () =>
      sandbox.subscribe((event) => {
        if (event.type === 'changed') refresh()
        else if (event.type === 'saved') setPersistence('saved')
        else if (event.type === 'save-failed')
          setPersistence({ failed: event.error instanceof Error ? event.error.message : String(event.error) })
        else if (event.type === 'reset') {
          setPersistence('reset')
          setSession((s) => s + 1)
        }
      }),
    [sandbox, refresh],
  )

  useEffect(() => {
    let live = true
    ferryApi(transport)
      .login(sandbox.login.email, sandbox.login.password)
      .then(
        (s) => live && setToken(s.token),
        (e: unknown) => live && setNotice({ kind: 'problem', problem: asProblem(e) }),
      )
    return () => {
      live = false
    }
  }, [sandbox, transport, session, setNotice])

  return { ...data, api, transport, persistence }
}
