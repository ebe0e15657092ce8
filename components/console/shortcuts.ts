import { useEffect, useRef } from 'react'
import { VIEWS, type View } from './views'

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
/** The palette's key in the platform's words: ⌘K on Apple systems, Ctrl K elsewhere. */
export const PALETTE_KEYS = mac ? ['⌘', 'K'] : ['Ctrl', 'K']

/** Every shortcut, as the help sheet lists it. */
export const SHORTCUTS: ReadonlyArray<{ keys: readonly string[]; what: string; together?: boolean }> = [
  { keys: PALETTE_KEYS, what: 'Open the command palette: apps, versions, actions', together: true },
  { keys: ['/'], what: 'Search apps (the app switcher)' },
  { keys: ['?'], what: 'Show these shortcuts' },
  ...VIEWS.map((v) => ({ keys: ['g', v.key], what: `Go to ${v.title}` })),
  { keys: ['Esc'], what: 'Close the palette, a menu or this sheet' },
]

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest('dialog') !== null)

/**
 * The console's keys on the whole page. Ctrl/⌘K works everywhere; the single keys only when no
 * field has the focus and no dialog is open, so typing is never taken over.
 */
export function useShortcuts(on: { palette: () => void; help: () => void; apps: () => void; view: (v: View) => void }) {
  const handlers = useRef(on)
  handlers.current = on
  useEffect(() => {
    let afterG = 0
    const keydown = (e: KeyboardEvent) => {
      const h = handlers.current
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        return h.palette()
      }
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typing(e.target)) return
      if (e.key === '?') {
        e.preventDefault()
        return h.help()
      }
      if (e.key === '/') {
        e.preventDefault()
        return h.apps()
      }
      if (afterG && e.timeStamp - afterG < 1500) {
        afterG = 0
        const view = VIEWS.find((v) => v.key === e.key)
        if (view) {
          e.preventDefault()
          h.view(view.id)
        }
        return
      }
      afterG = e.key === 'g' ? e.timeStamp : 0
    }
    window.addEventListener('keydown', keydown)
    return () => window.removeEventListener('keydown', keydown)
  }, [])
}
