import Router from 'next/router'

/** The part of the Network Information API (`navigator.connection`) that matters here. */
export type ConnectionInfo = { saveData?: boolean; effectiveType?: string }

/** True when the reader asked to save data or the connection is 2g or slower. */
export function isConstrainedConnection(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return false
  return connection.saveData === true || connection.effectiveType === '2g' || connection.effectiveType === 'slow-2g'
}

function currentConnection(): ConnectionInfo | undefined {
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection
}

type Prefetch = (typeof Router)['prefetch']

/** Wraps `prefetch` so that it resolves without fetching anything while `constrained()` says so. */
export function guardPrefetch(prefetch: Prefetch, constrained: () => boolean): Prefetch {
  return (...args) => (constrained() ? Promise.resolve() : prefetch(...args))
}

const guarded = new WeakSet<object>()

/**
 * Next skips only its viewport prefetch on such connections: hovering or touching a link
 * prefetches with priority, and the `_next/data` of a getStaticProps page is fetched either way.
 * Every prefetch (next/link's, the theme's links', router.prefetch()) ends in the router
 * instance's own `prefetch`, so that is the one method wrapped. The connection is read at each
 * call: a reader may turn data saving on while the page is open.
 */
export function skipPrefetchOnConstrainedConnections(): void {
  Router.ready(() => {
    const router = Router.router
    if (!router || guarded.has(router)) return
    guarded.add(router)
    router.prefetch = guardPrefetch(router.prefetch.bind(router), () => isConstrainedConnection(currentConnection()))
  })
}
