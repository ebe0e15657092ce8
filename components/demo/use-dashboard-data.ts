import { useCallback, useEffect, useMemo, useState } from 'react'
import type { SandboxClient } from './sandbox-loader'
import { ProblemError, sandboxApi, type App, type Catalogs, type Problem, type SandboxApi, type Version } from './sandbox-api'

export type Notice = { kind: 'done'; text: string } | { kind: 'problem'; problem: Problem } | undefined

export type Persistence = 'unsaved' | 'saved' | 'reset' | { failed: string }

const asProblem = (error: unknown): Problem =>
  error instanceof ProblemError ? error.problem : { type: 'about:blank', title: 'The request failed', status: 500, detail: error instanceof Error ? error.message : String(error) }

/**
 * The dashboard's view of the sandbox: signs in as the demo admin through the API, loads apps,
 * catalogs and the selected app's versions, and reloads them whenever anything (this dashboard
 * or a "Try it out" in the reference) changes the sandbox.
 */
export function useDashboardData(sandbox: SandboxClient) {
  const [session, setSession] = useState(0)
  const [token, setToken] = useState<string>()
  const [apps, setApps] = useState<App[]>([])
  const [appsLoaded, setAppsLoaded] = useState(false)
  const [catalogs, setCatalogs] = useState<Catalogs>({ channels: [], platforms: [], archs: [] })
  const [selected, setSelected] = useState<string>()
  // Whose versions these are: while the selected app's are loading there are none to show (not an empty list).
  const [versions, setVersions] = useState<{ app: string; items: Version[] }>()
  const [notice, setNotice] = useState<Notice>()
  const [persistence, setPersistence] = useState<Persistence>('unsaved')
  const [generation, setGeneration] = useState(0)
  const refresh = useCallback(() => setGeneration((g) => g + 1), [])

  useEffect(
    () =>
      sandbox.subscribe((event) => {
        if (event.type === 'changed') refresh()
        else if (event.type === 'saved') setPersistence('saved')
        else if (event.type === 'save-failed') setPersistence({ failed: event.error instanceof Error ? event.error.message : String(event.error) })
        else if (event.type === 'reset') {
          setPersistence('reset')
          setSession((s) => s + 1)
        }
      }),
    [sandbox, refresh],
  )

  useEffect(() => {
    let live = true
    sandboxApi(sandbox)
      .login(sandbox.login.email, sandbox.login.password)
      .then((s) => live && setToken(s.token), (e: unknown) => live && setNotice({ kind: 'problem', problem: asProblem(e) }))
    return () => {
      live = false
    }
  }, [sandbox, session])

  const api: SandboxApi | undefined = useMemo(() => (token ? sandboxApi(sandbox, token) : undefined), [sandbox, token])

  useEffect(() => {
    if (!api) return
    let live = true
    Promise.all([api.listApps(), api.catalogs()]).then(
      ([a, c]) => {
        if (!live) return
        setApps(a)
        setAppsLoaded(true)
        setCatalogs(c)
        setSelected((current) => (current && a.some((x) => x.slug === current) ? current : a[0]?.slug))
      },
      (e: unknown) => live && setNotice({ kind: 'problem', problem: asProblem(e) }),
    )
    return () => {
      live = false
    }
  }, [api, generation])

  useEffect(() => {
    if (!api || !selected) return
    let live = true
    api.listVersions(selected).then(
      (items) => live && setVersions({ app: selected, items }),
      (e: unknown) => live && setNotice({ kind: 'problem', problem: asProblem(e) }),
    )
    return () => {
      live = false
    }
  }, [api, selected, generation])

  /** Runs one change through the API and reports it; returns whether it succeeded. */
  const run = useCallback(
    async (done: string, action: (api: SandboxApi) => Promise<unknown>): Promise<boolean> => {
      if (!api) return false
      try {
        await action(api)
        setNotice({ kind: 'done', text: done })
        refresh()
        return true
      } catch (e) {
        setNotice({ kind: 'problem', problem: asProblem(e) })
        return false
      }
    },
    [api, refresh],
  )

  return { api, apps, appsLoaded, catalogs, selected, setSelected, versions: versions && versions.app === selected ? versions.items : undefined, notice, persistence, run, generation }
}
