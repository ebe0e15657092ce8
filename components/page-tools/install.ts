/**
 * The page tools' listeners on the document: the copy-page menu button (page-main.tsx) and the
 * feedback links (page-main.tsx, the code blocks' "Report a problem"). Their code loads on the
 * first interaction, so a page that is only read loads none of it.
 */
const menu = () => import('./page-menu')
const links = () => import('./feedback-links')

const menuButton = (target: EventTarget | null) =>
  (target as Element | null)?.closest?.<HTMLButtonElement>('button[data-ferry-page-menu]')
const feedbackLink = (target: EventTarget | null) =>
  (target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-ferry-feedback]')

/** A link's full URL is written when the pointer or focus reaches it, before it is followed. */
function prepare(event: Event) {
  const link = feedbackLink(event.target)
  if (link && !link.dataset.filled) void links().then((m) => m.fillFeedbackLink(link))
}

export function installPageTools(): void {
  document.addEventListener('click', (event) => {
    const button = menuButton(event.target)
    if (button) return void menu().then((m) => m.toggleMenu(button))
    const link = feedbackLink(event.target)
    if (!link || link.dataset.filled) return
    // Reached without hovering or focusing first (a tap): fill it, then follow it. A new tab is
    // opened within the click (browsers allow a popup only then) and sent on once the URL is written.
    event.preventDefault()
    const tab = link.target === '_blank' ? window.open('', '_blank') : null
    if (tab) tab.opener = null
    void links().then((m) => {
      m.fillFeedbackLink(link)
      if (tab) tab.location.href = link.href
      else window.location.href = link.href
    })
  })
  document.addEventListener('keydown', (event) => {
    const button = menuButton(event.target)
    if (!button || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return
    event.preventDefault()
    const focus = event.key === 'ArrowDown' ? 'first' : 'last'
    void menu().then((m) => m.openMenu(button, focus))
  })
  document.addEventListener('pointerover', prepare)
  document.addEventListener('focusin', prepare)
}
