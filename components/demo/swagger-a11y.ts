/**
 * Accessibility repairs for swagger-ui's DOM, applied as it renders: names for the server
 * select and server-variable inputs, and no links nested inside the operation toggle buttons
 * (deep links still work: the toggle updates the URL hash itself).
 */
export function repairSwaggerA11y(root: HTMLElement): () => void {
  const repair = () => {
    root
      .querySelectorAll<HTMLSelectElement>('select#servers:not([aria-label])')
      .forEach((el) => el.setAttribute('aria-label', 'Server'))
    root
      .querySelectorAll<HTMLInputElement | HTMLSelectElement>(':is(input, select)[data-variable]:not([aria-label])')
      .forEach((el) => el.setAttribute('aria-label', `Server variable ${el.dataset.variable}`))
    root.querySelectorAll<HTMLAnchorElement>('.opblock-summary-control a[href]').forEach((a) => {
      a.removeAttribute('href')
      a.setAttribute('role', 'presentation')
    })
  }
  repair()
  const observer = new MutationObserver(repair)
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}
