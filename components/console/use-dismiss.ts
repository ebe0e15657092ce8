import { useEffect, useRef, type RefObject } from 'react'

/**
 * Closes a popover on Esc (the focus goes back to its button), or when a click lands, or the
 * focus moves, outside it and its button.
 */
export function useDismiss(
  open: boolean,
  panel: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  close: () => void,
) {
  const closeRef = useRef(close)
  closeRef.current = close
  useEffect(() => {
    if (!open) return
    const outside = (e: Event) => {
      const t = e.target
      if (t instanceof Node && !panel.current?.contains(t) && !button.current?.contains(t)) closeRef.current()
    }
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      e.preventDefault()
      closeRef.current()
      button.current?.focus()
    }
    document.addEventListener('pointerdown', outside)
    document.addEventListener('focusin', outside)
    document.addEventListener('keydown', escape)
    return () => {
      document.removeEventListener('pointerdown', outside)
      document.removeEventListener('focusin', outside)
      document.removeEventListener('keydown', escape)
    }
  }, [open, panel, button])
}
