/**
 * What the theme's className functions receive, and the handlers that track it. Headless UI
 * calls `focus` what CSS calls :focus-visible: a ring for the keyboard, none for a click.
 */
import { useEffect, useState } from 'react'
import type { FocusEvent, PointerEvent } from 'react'

export type ClassName<S> = string | ((state: S) => string) | undefined

export function resolveClassName<S>(className: ClassName<S>, state: S): string | undefined {
  return typeof className === 'function' ? className(state) : className
}

/** Calls both handlers, the component's first. */
export function chain<E>(ours: (event: E) => void, theirs: ((event: E) => void) | undefined): (event: E) => void {
  return (event) => {
    ours(event)
    theirs?.(event)
  }
}

export interface Interaction {
  focus: boolean
  hover: boolean
}

export function useInteraction<E extends HTMLElement>(props: {
  onFocus?: (event: FocusEvent<E>) => void
  onBlur?: (event: FocusEvent<E>) => void
  onPointerEnter?: (event: PointerEvent<E>) => void
  onPointerLeave?: (event: PointerEvent<E>) => void
}) {
  const [focus, setFocus] = useState(false)
  const [hover, setHover] = useState(false)
  const handlers = {
    onFocus: chain((event: FocusEvent<E>) => setFocus(event.currentTarget.matches(':focus-visible')), props.onFocus),
    onBlur: chain(() => setFocus(false), props.onBlur),
    onPointerEnter: chain((event: PointerEvent<E>) => setHover(event.pointerType === 'mouse'), props.onPointerEnter),
    onPointerLeave: chain(() => setHover(false), props.onPointerLeave),
  }
  return { state: { focus, hover } satisfies Interaction, handlers }
}

/** Headless UI's data attributes for a set of flags: `data-focus=""` when true, absent when false. */
export function dataAttributes(flags: Record<string, boolean>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, on] of Object.entries(flags)) if (on) out[`data-${name}`] = ''
  return out
}

/**
 * An option of a list whose owner picks by id: its value is kept under its element id while it
 * is shown, and it scrolls into view when it becomes the active one.
 */
export function useListedOption(values: Map<string, unknown>, id: string, value: unknown, active: boolean): void {
  useEffect(() => {
    values.set(id, value)
    return () => {
      values.delete(id)
    }
  }, [values, id, value])
  useEffect(() => {
    if (active) document.getElementById(id)?.scrollIntoView?.({ block: 'nearest' })
  }, [active, id])
}
