/**
 * Static content of other pages, for client-side navigations: the page's own HTML, fetched once
 * (on a link's hover or touch, or when the page renders), its marked content taken out with
 * DOMParser. A render reads it through `readContent`, which suspends until it has arrived; Next
 * renders navigations in a transition, so the old page stays on screen meanwhile.
 */
import Router from 'next/router'
import { CONTENT_SELECTOR } from './content-marker'
import { prepareTabs } from './tabs-behaviour'

/** `shown`: fetched for a render, so a failure is final (a failed prefetch is tried again). */
type Entry = { done: Promise<void>; html?: string; error?: Error; shown: boolean }

/** Pages kept; the oldest goes first. A page is a few tens of KB of HTML. */
const LIMIT = 24
const entries = new Map<string, Entry>()

/** Whether a client-side navigation is under way (the only time a page's content is fetched to be shown). */
let navigating = false
if (typeof window !== 'undefined') {
  Router.events.on('routeChangeStart', () => (navigating = true))
  Router.events.on('routeChangeComplete', () => (navigating = false))
  Router.events.on('routeChangeError', () => (navigating = false))
}

/** The path a content entry is kept under: no query, no hash. */
export function contentPath(url: string): string {
  return new URL(url, window.location.href).pathname
}

async function fetchContent(path: string): Promise<string> {
  // Any status: a not-found page has content too.
  const response = await fetch(path, { credentials: 'same-origin' })
  const page = new DOMParser().parseFromString(await response.text(), 'text/html')
  const content = page.querySelector(CONTENT_SELECTOR)
  if (!content) throw new Error(`${path}: HTTP ${response.status}, no static content in the page`)
  prepareTabs(content)
  return content.innerHTML
}

function load(path: string, shown: boolean): Entry {
  const known = entries.get(path)
  if (known && (!known.error || known.shown)) return known
  const entry: Entry = {
    shown,
    done: fetchContent(path).then(
      (html) => void (entry.html = html),
      (error: Error) => void (entry.error = error),
    ),
  }
  entries.set(path, entry)
  while (entries.size > LIMIT) entries.delete(entries.keys().next().value!)
  return entry
}

/** Keeps the content of a page that is left, so coming back to it needs no fetch. */
export function rememberContent(path: string, html: string): void {
  entries.delete(path)
  entries.set(path, { done: Promise.resolve(), html, shown: true })
  while (entries.size > LIMIT) entries.delete(entries.keys().next().value!)
}

/** Starts fetching a page's content; a failure here is retried when the page renders. */
export function prefetchContent(url: string): void {
  load(contentPath(url), false)
}

/**
 * The HTML of a page's content, or a thrown promise while it loads (React suspends). If it cannot
 * be had during a navigation, the browser loads the page itself, as Next does when a route's code
 * fails to load; at any other time (the page the browser loaded, rendered without hydrating), the
 * error goes to the page's error boundary, whose "Try again" fetches it again.
 */
export function readContent(path: string): string {
  const entry = load(path, true)
  if (entry.html !== undefined) return entry.html
  if (entry.error) {
    entries.delete(path)
    if (!navigating) throw entry.error
    window.location.assign(path)
    throw new Promise<void>(() => {})
  }
  throw entry.done
}
