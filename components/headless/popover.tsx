/**
 * Headless UI's Popover, for Nextra's <Popup> (twoslash hovers): a button that shows a panel,
 * or a panel shown while the pointer is over its owner (`static`). Escape closes it.
 */
import { createContext, useContext, useRef, useState } from 'react'
import type { ElementType, HTMLAttributes, KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import { useAnchor, useOutsidePress } from './anchor'
import type { Anchor } from './anchor'
import { chain, resolveClassName } from './state'
import type { ClassName } from './state'

interface PopoverState {
  open: boolean
  setOpen: (open: boolean) => void
  button: { current: HTMLButtonElement | null }
  panel: { current: HTMLElement | null }
}

const Context = createContext<PopoverState | null>(null)

function usePopover(): PopoverState {
  const state = useContext(Context)
  if (!state) throw new Error('<PopoverButton> and <PopoverPanel> must be inside <Popover>')
  return state
}

export function Popover({
  as: As = 'div',
  className,
  ...props
}: Omit<HTMLAttributes<HTMLElement>, 'className'> & { as?: ElementType; className?: ClassName<{ open: boolean }> }) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement | null>(null)
  const panel = useRef<HTMLElement | null>(null)
  return (
    <Context.Provider value={{ open, setOpen, button, panel }}>
      <As {...props} className={resolveClassName(className, { open })} />
    </Context.Provider>
  )
}

export function PopoverButton({
  className,
  ...props
}: Omit<HTMLAttributes<HTMLButtonElement>, 'className'> & { className?: ClassName<{ open: boolean }> }) {
  const state = usePopover()
  return (
    <button
      ref={(element) => {
        state.button.current = element
      }}
      type="button"
      aria-expanded={state.open}
      {...props}
      onClick={chain(() => state.setOpen(!state.open), props.onClick)}
      className={resolveClassName(className, { open: state.open })}
    />
  )
}

export function PopoverPanel({
  className,
  anchor,
  static: always = false,
  ...props
}: Omit<HTMLAttributes<HTMLDivElement>, 'className'> & {
  className?: ClassName<{ open: boolean }>
  anchor?: Anchor
  static?: boolean
}) {
  const state = usePopover()
  const shown = state.open || always
  useAnchor(state.button, state.panel, anchor, props.children)
  useOutsidePress(state.open, [state.button, state.panel], () => state.setOpen(false))
  if (!shown) return null
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return
    state.setOpen(false)
    state.button.current?.focus()
  }
  return createPortal(
    <div
      ref={(element) => {
        state.panel.current = element
      }}
      {...props}
      onKeyDown={chain(onKeyDown, props.onKeyDown)}
      className={resolveClassName(className, { open: shown })}
    />,
    document.body,
  )
}
