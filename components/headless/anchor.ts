/**
 * Places a floating panel next to the element that opened it, as Headless UI's `anchor` prop
 * does: `to` is "<side> <align>" ("bottom start", "top end"), flipped to the other side when it
 * does not fit; `gap` between them, `padding` kept from the viewport edges. The panel is fixed,
 * so it is portalled to <body> by its owner and follows scrolling and resizing here.
 */
import { useEffect, useLayoutEffect } from 'react'
import type { RefObject } from 'react'

export interface Anchor {
  to?: string
  gap?: number | string
  padding?: number | string
}

const px = (value: number | string | undefined) =>
  typeof value === 'number' ? value : Number.parseFloat(value ?? '0') || 0

export function place(
  trigger: DOMRect,
  panel: HTMLElement,
  anchor: Anchor,
  viewport = { width: window.innerWidth, height: window.innerHeight },
): void {
  const [side = 'bottom', align = 'center'] = (anchor.to ?? 'bottom').split(' ')
  const gap = px(anchor.gap)
  const padding = px(anchor.padding)
  const style = panel.style
  style.position = 'fixed'
  style.maxWidth = `${viewport.width - 2 * padding}px`
  style.setProperty('--button-width', `${trigger.width}px`)
  const above = trigger.top - gap - padding
  const below = viewport.height - trigger.bottom - gap - padding
  const height = panel.scrollHeight
  const up = side === 'top' ? height <= above || above > below : height > below && above > below
  style.maxHeight = `${Math.max(0, up ? above : below)}px`
  // As Headless UI's anchored panels: what does not fit scrolls inside the panel, never over the page.
  style.overflowY = 'auto'
  const shown = Math.min(height, up ? above : below)
  style.top = `${up ? trigger.top - gap - shown : trigger.bottom + gap}px`
  const width = panel.offsetWidth
  const left =
    align === 'end'
      ? trigger.right - width
      : align === 'start'
        ? trigger.left
        : trigger.left + (trigger.width - width) / 2
  style.left = `${Math.min(Math.max(left, padding), viewport.width - padding - width)}px`
}

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect

/** Keeps `panel` placed against `trigger` while it is shown; `key` changes re-place it (new content). */
export function useAnchor(
  trigger: RefObject<HTMLElement | null>,
  panel: RefObject<HTMLElement | null>,
  anchor: Anchor | undefined,
  key: unknown,
): void {
  useIsomorphicLayoutEffect(() => {
    const update = () => {
      if (trigger.current && panel.current && anchor)
        place(trigger.current.getBoundingClientRect(), panel.current, anchor)
    }
    update()
    window.addEventListener('resize', update)
    window.addEventListener('scroll', update, true)
    return () => {
      window.removeEventListener('resize', update)
      window.removeEventListener('scroll', update, true)
    }
  }, [trigger, panel, anchor?.to, anchor?.gap, anchor?.padding, key])
}

/** Calls `close` on a pointer press outside every element in `inside`. */
export function useOutsidePress(open: boolean, inside: RefObject<HTMLElement | null>[], close: () => void): void {
  useEffect(() => {
    if (!open) return
    const onPress = (event: PointerEvent) => {
      const target = event.target
      if (target instanceof Node && inside.some((ref) => ref.current?.contains(target))) return
      close()
    }
    document.addEventListener('pointerdown', onPress, true)
    return () => document.removeEventListener('pointerdown', onPress, true)
  })
}
