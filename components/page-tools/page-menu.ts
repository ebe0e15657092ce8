/**
 * The copy-page menu (WAI-ARIA menu button): copy the page's Markdown twin, view it, or open an
 * AI assistant with a prompt that links it. Loaded on the button's first use (install.ts); plain
 * DOM, since the page's content is never hydrated. Arrow keys, Home and End move between items,
 * Escape closes and returns to the button, Tab and a click elsewhere close.
 */
import Router from 'next/router'
import { siteConfig } from '../../site.config'

const MENU_ID = 'ferry-page-menu'
const SHOWN_FOR_MS = 3000

interface Open {
  button: HTMLButtonElement
  menu: HTMLElement
  twin: Promise<string>
}
let open: Open | undefined

const items = (menu: HTMLElement) => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')]

/** The twin's text, fetched when the menu opens so copying has it at hand. */
async function fetchTwin(href: string): Promise<string> {
  const response = await fetch(href, { headers: { Accept: 'text/markdown' } })
  if (!response.ok) throw new Error(`${href} answered ${response.status}`)
  return response.text()
}

/** Announced by the live region beside the button, and shown there for a few seconds. */
function announce(button: HTMLButtonElement, text: string) {
  const status = button.parentElement?.querySelector<HTMLElement>('.ferry-page-menu-status')
  if (!status) return
  status.textContent = text
  window.setTimeout(() => {
    if (status.textContent === text) status.textContent = ''
  }, SHOWN_FOR_MS)
}

async function copy(state: Open) {
  const { button, twin } = state
  try {
    // A ClipboardItem keeps the click's permission while the text is still on its way.
    if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
      await navigator.clipboard.write([
        new ClipboardItem({ 'text/plain': twin.then((text) => new Blob([text], { type: 'text/plain' })) }),
      ])
    } else {
      await navigator.clipboard.writeText(await twin)
    }
    announce(button, 'Copied the page as Markdown')
  } catch (error) {
    announce(button, `Could not copy: ${error instanceof Error ? error.message : String(error)}`)
  }
}

function item(tag: 'a' | 'button', label: string, hint: string): HTMLElement {
  const element = document.createElement(tag)
  element.setAttribute('role', 'menuitem')
  element.tabIndex = -1
  if (tag === 'button') element.setAttribute('type', 'button')
  const title = document.createElement('span')
  title.textContent = label
  const small = document.createElement('small')
  small.textContent = hint
  element.append(title, small)
  const li = document.createElement('li')
  li.setAttribute('role', 'none')
  li.append(element)
  return element
}

function build(button: HTMLButtonElement, twinHref: string): HTMLElement {
  const menu = document.createElement('ul')
  menu.id = MENU_ID
  menu.className = 'ferry-page-menu-list'
  menu.setAttribute('role', 'menu')
  menu.setAttribute('aria-labelledby', button.id)
  const twinUrl = new URL(twinHref, window.location.href).href
  const copyItem = item('button', 'Copy page as Markdown', 'The page as Markdown, for an assistant or an editor')
  copyItem.dataset.action = 'copy'
  const view = item('a', 'View as Markdown', "The page's Markdown twin, as plain text")
  view.setAttribute('href', twinHref)
  const prompt = `Read ${twinUrl} — the ${siteConfig.name} docs page as Markdown — so I can ask you questions about it.`
  const assistants = siteConfig.assistants.map((assistant) => {
    const link = item('a', `Open in ${assistant.label}`, 'Ask questions about this page')
    link.setAttribute('href', `${assistant.href}${encodeURIComponent(prompt)}`)
    link.setAttribute('target', '_blank')
    link.setAttribute('rel', 'noopener')
    return link
  })
  menu.append(...[copyItem, view, ...assistants].map((element) => element.parentElement!))
  return menu
}

function focusItem(menu: HTMLElement, index: number) {
  const all = items(menu)
  all[(index + all.length) % all.length]?.focus()
}

export function closeMenu(returnFocus = false): void {
  if (!open) return
  const { button, menu } = open
  open = undefined
  button.setAttribute('aria-expanded', 'false')
  button.removeAttribute('aria-controls')
  menu.remove()
  document.removeEventListener('pointerdown', onOutside, true)
  if (returnFocus) button.focus()
}

function onOutside(event: Event) {
  if (open && !open.button.parentElement?.contains(event.target as Node)) closeMenu()
}

function onKey(event: KeyboardEvent) {
  if (!open) return
  const menu = open.menu
  const index = items(menu).indexOf(document.activeElement as HTMLElement)
  const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: -1 }
  if (event.key in moves) {
    event.preventDefault()
    focusItem(menu, moves[event.key]!)
  } else if (event.key === 'Escape') {
    event.preventDefault()
    closeMenu(true)
  } else if (event.key === 'Tab') {
    closeMenu()
  }
}

function onChoose(event: MouseEvent) {
  const state = open
  const chosen = (event.target as Element).closest<HTMLElement>('[role="menuitem"]')
  if (!state || !chosen) return
  if (chosen.dataset.action === 'copy') void copy(state)
  closeMenu(chosen.dataset.action === 'copy')
}

export function openMenu(button: HTMLButtonElement, focus: 'first' | 'last' = 'first'): void {
  if (open?.button === button) return focusItem(open.menu, focus === 'first' ? 0 : -1)
  closeMenu()
  const twinHref = button.dataset.ferryPageMenu ?? ''
  const menu = build(button, twinHref)
  menu.addEventListener('keydown', onKey)
  menu.addEventListener('click', onChoose)
  const twin = fetchTwin(twinHref)
  twin.catch(() => {})
  open = { button, menu, twin }
  const wrapper = button.parentElement!
  if (!wrapper.querySelector('.ferry-page-menu-status')) {
    const status = document.createElement('span')
    status.className = 'ferry-page-menu-status'
    status.setAttribute('role', 'status')
    wrapper.append(status)
  }
  wrapper.append(menu)
  button.setAttribute('aria-expanded', 'true')
  button.setAttribute('aria-controls', MENU_ID)
  document.addEventListener('pointerdown', onOutside, true)
  focusItem(menu, focus === 'first' ? 0 : -1)
}

export function toggleMenu(button: HTMLButtonElement): void {
  if (open?.button === button) closeMenu()
  else openMenu(button)
}

Router.events.on('routeChangeStart', () => closeMenu())
