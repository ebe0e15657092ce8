import { useCallback, useEffect, useRef, useState } from 'react'
import { ProblemError, type App, type Catalogs, type FerryApi, type Problem, type Version } from './sandbox-api'

/** How often an open, visible page reads the selected app's versions again. */
export const POLL_MS = 4000

/** A change that can be taken back from its notice (a pause by a resume): what the button runs and then says. */
export interface Undo {
  done: string
  action: (api: FerryApi) => Promise<unknown>
}

export type Notice = { kind: 'done'; text: string; undo?: Undo } | { kind: 'problem'; problem: Problem } | undefined

/** Runs one change through the API and reports it (with a way back, if `undo`); resolves to whether it succeeded. */
export type Run = (done: string, action: (api: FerryApi) => Promise<unknown>, undo?: Undo) => Promise<boolean>

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

  // Reads of the versions are numbered: an answer older than the one shown (a poll that started
  // before a change, answered after the read that follows it) is dropped.
  const reads = useRef({ started: 0, shown: 0 })
  const readVersions = useCallback(
    (slug: string, onError: (e: unknown) => void) => {
      if (!api) return () => undefined
      let live = true
      const n = ++reads.current.started
      api.listVersions(slug).then(
        (items) => {
          if (!live || n < reads.current.shown) return
          reads.current.shown = n
          setVersions((now) =>
            now?.app === slug && JSON.stringify(now.items) === JSON.stringify(items) ? now : { app: slug, items },
          )
        },
        (e: unknown) => live && onError(e),
      )
      return () => {
        live = false
      }
    },
    [api],
  )

  useEffect(() => (selected ? readVersions(selected, fail) : undefined), [readVersions, selected, generation, fail])

  // Live: ramp steps, health-gate pauses and other people's changes appear without a reload. The
  // versions are read again every POLL_MS while the page is visible, and at once when it shows again.
  useEffect(() => {
    if (!selected) return
    let stop = () => {}
    const poll = () => {
      if (document.visibilityState !== 'visible') return
      stop()
      stop = readVersions(selected, () => undefined)
    }
    const timer = setInterval(poll, POLL_MS)
    document.addEventListener('visibilitychange', poll)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', poll)
      stop()
    }
  }, [readVersions, selected])

  const run: Run = useCallback(
    async (done, action, undo) => {
      if (!api) return false
      try {
        await action(api)
        setNotice(undo ? { kind: 'done', text: done, undo } : { kind: 'done', text: done })
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
