/**
 * The Try it button of every operation page, by delegation: it shows or hides the panel, and the
 * first time it opens one, loads the panel's code and mounts it in its own React root (the page's
 * content is static HTML, never hydrated). Panels of pages left behind are unmounted.
 */
import Router from 'next/router'
import { createElement } from 'react'
import type { Root } from 'react-dom/client'
import type { TryItRequest } from '../../../lib/codegen/model'
import { restoreSamples } from './sample-originals'

const roots = new Map<HTMLElement, Root>()

function isTryItRequest(x: unknown): x is TryItRequest {
  if (typeof x !== 'object' || x === null) return false
  const r = x as Partial<TryItRequest>
  return (
    typeof r.method === 'string' &&
    typeof r.path === 'string' &&
    Array.isArray(r.parameters) &&
    Array.isArray(r.security)
  )
}

async function mount(section: HTMLElement, panel: HTMLElement): Promise<void> {
  const operationId = section.dataset.ferryTryIt ?? ''
  const request: unknown = JSON.parse(section.dataset.request ?? 'null')
  if (!isTryItRequest(request)) throw new Error(`Try it for ${operationId}: the page carries no request to try`)
  panel.textContent = 'Loading Try it…'
  const [{ createRoot }, { TryItPanel }] = await Promise.all([import('react-dom/client'), import('./panel')])
  panel.textContent = ''
  const root = createRoot(panel)
  roots.set(panel, root)
  root.render(createElement(TryItPanel, { operationId, request }))
}

function toggle(button: HTMLButtonElement) {
  const section = button.closest<HTMLElement>('[data-ferry-try-it]')
  const panel = section?.querySelector<HTMLElement>('.ferry-try-it-panel')
  if (!section || !panel) return
  const open = button.getAttribute('aria-expanded') !== 'true'
  button.setAttribute('aria-expanded', String(open))
  panel.hidden = !open
  if (open && !roots.has(panel)) {
    mount(section, panel).catch((error: unknown) => {
      panel.textContent = `Try it could not load: ${error instanceof Error ? error.message : String(error)}`
    })
  }
}

/** Try it as the server rendered it, closed and empty (for a copy of a page's content kept for coming back). */
export function closeTryIt(root: ParentNode): void {
  restoreSamples(root)
  root.querySelectorAll<HTMLElement>('[data-ferry-try-it]').forEach((section) => {
    section.querySelector('[data-ferry-try-it-toggle]')?.setAttribute('aria-expanded', 'false')
    const panel = section.querySelector<HTMLElement>('.ferry-try-it-panel')
    if (!panel) return
    panel.hidden = true
    panel.replaceChildren()
  })
}

/** A page opened with a shared request (`?try=`, shared-state.ts) opens its Try it with it. */
function openShared() {
  if (!new URLSearchParams(window.location.search).has('try')) return
  void import('./shared-state').then(({ sharedOperation }) => {
    const operation = sharedOperation(window.location.search)
    const section = [...document.querySelectorAll<HTMLElement>('[data-ferry-try-it]')].find(
      (s) => s.dataset.ferryTryIt === operation,
    )
    const button = section?.querySelector<HTMLButtonElement>('button[data-ferry-try-it-toggle]')
    if (button && button.getAttribute('aria-expanded') !== 'true') toggle(button)
    section?.scrollIntoView({ block: 'start' })
  })
}

export function installTryIt(): void {
  // After the page's own scripts ran, so the panel mounts into content React has settled.
  if (document.readyState === 'complete') openShared()
  else window.addEventListener('load', openShared, { once: true })
  Router.events.on('routeChangeComplete', openShared)
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('button[data-ferry-try-it-toggle]')
    if (button) toggle(button)
  })
  Router.events.on('routeChangeComplete', () => {
    for (const [panel, root] of roots) {
      if (panel.isConnected) continue
      root.unmount()
      roots.delete(panel)
    }
  })
}
