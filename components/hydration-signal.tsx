/**
 * Tells the page-script loader (components/paint-first-scripts.tsx) that the page has hydrated, so
 * it lets the load event fire: after `load`, every control on the page answers a click.
 */
import { useEffect } from 'react'

/** Dispatched on `document` once the page's content has hydrated. */
export const HYDRATED_EVENT = 'ferry:hydrated'

/** Rendered after the page, inside its Suspense boundary: its effect runs once that boundary has hydrated. */
export function HydrationSignal() {
  useEffect(() => {
    document.dispatchEvent(new Event(HYDRATED_EVENT))
  }, [])
  return null
}
