/**
 * Tabs (tabs.tsx) by delegation, the WAI-ARIA tabs pattern with automatic activation: a click or
 * the arrow keys, Home and End select a tab. A group with a storage key remembers the reader's
 * choice by its label (localStorage), and every group with that key follows it: on this page at
 * once, on the next page before it is shown (`prepareTabs` on fetched content, the inline script
 * after each group on a full page load).
 */
const GROUP = '[data-ferry-tabs]'

/**
 * Shows tab `index` of `group`, or with no index the tab whose label is stored under the group's
 * key. Self-contained: tabs.tsx also inlines its source after each group, where it runs while
 * the page is parsed, before the group is first painted.
 */
export function showTab(group: Element, index?: number): void {
  const tabs = group.querySelectorAll('[role="tab"]')
  const panels = group.querySelectorAll('[role="tabpanel"]')
  let chosen = index
  if (chosen === undefined) {
    const key = group.getAttribute('data-storage-key')
    let stored: string | null
    try {
      stored = key ? window.localStorage.getItem(key) : null
    } catch {
      stored = null
    }
    for (let i = 0; i < tabs.length; i++)
      if (stored !== null && tabs[i]!.getAttribute('data-value') === stored) chosen = i
    if (chosen === undefined) return
  }
  for (let i = 0; i < tabs.length; i++) {
    const tab = tabs[i]!
    tab.setAttribute('aria-selected', String(i === chosen))
    tab.setAttribute('tabindex', i === chosen ? '0' : '-1')
  }
  for (let i = 0; i < panels.length; i++) {
    const panel = panels[i]!
    if (i === chosen) panel.removeAttribute('hidden')
    else panel.setAttribute('hidden', '')
  }
}

/** Applies stored choices to every group in `root` (content fetched for a navigation). */
export function prepareTabs(root: ParentNode): void {
  root.querySelectorAll(GROUP).forEach((group) => showTab(group))
}

function choose(tab: HTMLElement, focus: boolean) {
  const group = tab.closest(GROUP)
  if (!group) return
  const tabs = [...group.querySelectorAll<HTMLElement>('[role="tab"]')]
  showTab(group, tabs.indexOf(tab))
  if (focus) tab.focus()
  const key = group.getAttribute('data-storage-key')
  const value = tab.dataset.value
  if (!key || value === undefined) return
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Without storage the choice holds for this page only.
  }
  document
    .querySelectorAll(`${GROUP}[data-storage-key="${CSS.escape(key)}"]`)
    .forEach((other) => other !== group && showTab(other))
}

const MOVES: Record<string, (current: number, last: number) => number> = {
  ArrowRight: (current, last) => (current === last ? 0 : current + 1),
  ArrowLeft: (current, last) => (current === 0 ? last : current - 1),
  Home: () => 0,
  End: (_, last) => last,
}

function tabOf(target: EventTarget | null): HTMLElement | null {
  const tab = (target as Element | null)?.closest?.<HTMLElement>('[role="tab"]')
  return tab?.closest(GROUP) ? tab : null
}

export function installTabs(): void {
  document.addEventListener('click', (event) => {
    const tab = tabOf(event.target)
    if (tab) choose(tab, false)
  })
  document.addEventListener('keydown', (event) => {
    const tab = tabOf(event.target)
    const move = MOVES[event.key]
    if (!tab || !move) return
    const tabs = [...tab.closest('[role="tablist"]')!.querySelectorAll<HTMLElement>('[role="tab"]')]
    const next = tabs[move(tabs.indexOf(tab), tabs.length - 1)]
    if (!next) return
    event.preventDefault()
    choose(next, true)
  })
}
