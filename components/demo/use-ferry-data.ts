import { useCallback, useEffect, useState } from 'react'
import { ProblemError, type App, type Catalogs, type FerryApi, type Problem, type Version } from './sandbox-api'

export type Notice = { kind: 'done'; text: string } | { kind: 'problem'; problem: Problem } | undefined

export const asProblem = (error: unknown): Problem =>
  error instanceof ProblemError
    ? error.problem
    : error instanceof DOMException && error.name === 'AbortError'
      ? { type: 'about:blank', title: 'Cancelled', status: 499, detail: error.message }
      : {
          type: 'about:blank',
          title: 'The request failed',
          status: 500,
          detail: error instanceof Error ? error.message : String(error),
        }

/**
 * What the dashboard shows of a Ferry server, whichever it is (the /demo sandbox or the server
 * behind /console): apps, catalogs and the selected app's versions, reloaded after every change.
 * `onProblem` sees every failed request first (the console asks to sign in again on a 401).
 */
export function useFerryData(api: FerryApi | undefined, onProblem?: (problem: Problem) => void) {
  const [apps, setApps] = useState<App[]>([])
  const [appsLoaded, setAppsLoaded] = useState(false)
  const [catalogs, setCatalogs] = useState<Catalogs>({ channels: [], platforms: [], archs: [] })
  const [selected, setSelected] = useState<string>()
  // Whose versions these are: while the selected app's are loading there are none to show (not an empty list).
  const [versions, setVersions] = useState<{ app: string; items: Version[] }>()
  const [notice, setNotice] = useState<Notice>()
  const [generation, setGeneration] = useState(0)
  const refresh = useCallback(() => setGeneration((g) => g + 1), [])
  const fail = useCallback(
    (e: unknown) => {
      const problem = asProblem(e)
      onProblem?.(problem)
      setNotice({ kind: 'problem', problem })
    },
    [onProblem],
  )

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
      (e: unknown) => live && fail(e),
    )
    return () => {
      live = false
    }
  }, [api, generation, fail])

  useEffect(() => {
    if (!api || !selected) return
    let live = true
    api.listVersions(selected).then(
      (items) => live && setVersions({ app: selected, items }),
      (e: unknown) => live && fail(e),
    )
    return () => {
      live = false
    }
  }, [api, selected, generation, fail])

  /** Runs one change through the API and reports it; returns whether it succeeded. */
  const run = useCallback(
    async (done: string, action: (api: FerryApi) => Promise<unknown>): Promise<boolean> => {
      if (!api) return false
      try {
        await action(api)
        setNotice({ kind: 'done', text: done })
        refresh()
        return true
      } catch (e) {
        fail(e)
        return false
      }
    },
    [api, refresh, fail],
  )

  return {
    apps,
    appsLoaded,
    catalogs,
    selected,
    setSelected,
    versions: versions && versions.app === selected ? versions.items : undefined,
    notice,
    setNotice,
    run,
    generation,
    refresh,
  }
}
