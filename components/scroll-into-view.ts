/**
 * Stands in for `scroll-into-view-if-needed` inside Nextra's docs theme (next.config.mjs aliases
 * it). The theme calls it twice, each time to centre an entry inside one scrolling box (the
 * sidebar's active item, the table of contents' active link) with that box as `boundary`: the
 * library's general frame walk was 1.3 KB of every page's JavaScript.
 */
interface Options {
  behavior?: ScrollBehavior
  block?: 'center' | 'start' | 'end' | 'nearest'
  scrollMode?: 'always' | 'if-needed'
  boundary?: Element | null
}

function scrolls(box: Element): boolean {
  const { overflowY } = getComputedStyle(box)
  return box.scrollHeight > box.clientHeight && (overflowY === 'auto' || overflowY === 'scroll')
}

/** Scrolls each scrolling box between `target` and `boundary` (inclusive) so `target` sits in its middle. */
export default function scrollIntoView(target: Element, options: Options = {}): void {
  const { behavior = 'auto', scrollMode = 'always', boundary } = options
  if (!target.isConnected) return
  for (let box = target.parentElement; box; box = box.parentElement) {
    if (scrolls(box)) {
      const inner = target.getBoundingClientRect()
      const outer = box.getBoundingClientRect()
      const visible = inner.top >= outer.top && inner.bottom <= outer.bottom
      if (scrollMode === 'always' || !visible) {
        const offset = inner.top - outer.top - (box.clientHeight - inner.height) / 2
        box.scrollBy({ top: offset, behavior })
      }
    }
    if (box === boundary || box === document.body) return
  }
}
