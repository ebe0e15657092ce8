import { useEffect, useState, type DependencyList } from 'react'

/** Where one read of a view stands. */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; error: unknown }

/**
 * Runs `load` whenever `deps` change (none while `load` is undefined) and returns where it stands.
 * A rerun keeps the last answer on screen until the new one comes (a list refreshed after an
 * action neither flickers nor loses focus); an answer that comes back after the view moved on
 * (newer deps, unmounted) is dropped, so a slow read never overwrites a newer one.
 */
export function useLoad<T>(load: (() => Promise<T>) | undefined, deps: DependencyList): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    if (!load) return
    let live = true
    load().then(
      (value) => live && setLoaded({ state: 'ready', value }),
      (error: unknown) => live && setLoaded({ state: 'failed', error }),
    )
    return () => {
      live = false
    }
    // `load` is a new closure each render: `deps` name what it reads.
  }, deps)
  return loaded
}

/** The value once read; `fallback` while loading is over but the read failed; undefined while loading. */
export function loadedOr<T>(loaded: Loaded<T>, fallback: T): T | undefined {
  return loaded.state === 'ready' ? loaded.value : loaded.state === 'failed' ? fallback : undefined
}
