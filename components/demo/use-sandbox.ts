import { useCallback, useEffect, useState } from 'react'
import { loadSandbox, type SandboxClient } from './sandbox-loader'

export type SandboxStatus =
  { state: 'starting' } | { state: 'ready'; sandbox: SandboxClient } | { state: 'failed'; message: string }

/** Starts the shared sandbox after the first render; `retry` starts it again after a failure. */
export function useSandbox(): { status: SandboxStatus; retry: () => void } {
  const [status, setStatus] = useState<SandboxStatus>({ state: 'starting' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    loadSandbox().then(
      (sandbox) => live && setStatus({ state: 'ready', sandbox }),
      (error: unknown) =>
        live && setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      live = false
    }
  }, [attempt])
  const retry = useCallback(() => {
    setStatus({ state: 'starting' })
    setAttempt((n) => n + 1)
  }, [])
  return { status, retry }
}
