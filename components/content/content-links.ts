/**
 * Links in static content are plain <a> elements (no next/link to hydrate). One listener on the
 * document gives them what next/link gives the rest of the site: a click on a link to another
 * page of the site navigates on the client, and hovering or touching one prefetches its page
 * (through the router's prefetch, so data-saving and 2g connections skip it). Same-page anchors,
 * new tabs, downloads, other origins and modified clicks are left to the browser.
 */
import Router from 'next/router'
import { CONTENT_SELECTOR } from './content-marker'

function siteLink(target: EventTarget | null): HTMLAnchorElement | null {
  const anchor = (target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]')
  if (!anchor || !anchor.closest(CONTENT_SELECTOR)) return null
  if (
    (anchor.target && anchor.target !== '_self') ||
    anchor.hasAttribute('download') ||
    anchor.origin !== window.location.origin
  )
    return null
  return anchor
}

const samePage = (anchor: HTMLAnchorElement) =>
  anchor.pathname === window.location.pathname && anchor.search === window.location.search

const prefetched = new Set<string>()

function onIntent(event: Event) {
  const anchor = siteLink(event.target)
  if (!anchor || samePage(anchor) || prefetched.has(anchor.pathname)) return
  prefetched.add(anchor.pathname)
  void Router.router?.prefetch(anchor.pathname, anchor.pathname, { priority: true })
}

function onClick(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return
  const anchor = siteLink(event.target)
  if (!anchor || (samePage(anchor) && anchor.hash)) return
  event.preventDefault()
  void Router.push(anchor.pathname + anchor.search + anchor.hash)
}

export function installContentLinks(): void {
  document.addEventListener('click', onClick)
  document.addEventListener('pointerover', onIntent, { passive: true })
  document.addEventListener('touchstart', onIntent, { passive: true })
}
