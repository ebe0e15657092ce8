import { useEffect, useState } from 'react'

/** The console's views: fragment, title, the key after `g` that opens it, and whether it shows one app. */
export const VIEWS = [
  { id: 'releases', title: 'Releases', key: 'r', scope: 'app' },
  { id: 'drafts', title: 'Drafts', key: 'd', scope: 'app' },
  { id: 'rollouts', title: 'Rollouts', key: 'o', scope: 'app' },
  { id: 'adoption', title: 'Adoption', key: 'a', scope: 'app' },
  { id: 'rules', title: 'Holds and pins', key: 'h', scope: 'app' },
  { id: 'explain', title: 'Explain', key: 'x', scope: 'app' },
  { id: 'settings', title: 'App settings', key: 's', scope: 'app' },
  { id: 'webhooks', title: 'Webhooks', key: 'w', scope: 'team' },
  { id: 'tokens', title: 'Tokens', key: 't', scope: 'team' },
  { id: 'team', title: 'Team', key: 'm', scope: 'team' },
  { id: 'audit', title: 'Audit log', key: 'l', scope: 'team' },
] as const

export type ViewInfo = (typeof VIEWS)[number]
export type View = ViewInfo['id']

/** Views only an admin is offered (the API refuses them to others). */
export const ADMIN_VIEWS: readonly View[] = ['webhooks', 'team']

export const viewOf = (hash: string): View => VIEWS.find((v) => `#${v.id}` === hash)?.id ?? 'releases'

/** The view named by the address's fragment (#drafts, #webhooks, …), so each has its own address and history entry. */
export function useView(): View {
  const [view, setView] = useState<View>(() => viewOf(window.location.hash))
  useEffect(() => {
    const follow = () => setView(viewOf(window.location.hash))
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [])
  return view
}

export const go = (view: View) => {
  window.location.hash = view
}
