/**
 * Focuses (and scrolls to) the first element matching `selector` once it is on the page: an
 * action that first opens a view then reaches into it. It starts a frame later, after a closing
 * dialog has given the focus back, and gives up after about a second.
 */
export function focusLater(selector: string, frames = 60): void {
  requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>(selector)
    if (!el) {
      if (frames > 0) focusLater(selector, frames - 1)
      return
    }
    if (!el.matches('input, select, textarea, button, a[href], [tabindex]')) el.tabIndex = -1
    el.scrollIntoView({ block: 'center' })
    el.focus()
  })
}
