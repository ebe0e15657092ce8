/**
 * Headless UI's Listbox and Menu as the theme uses them (a select in the footer, a navbar menu):
 * a button opens a popup list that takes focus, arrows, Home and End move the active item,
 * Enter or Space picks it, Escape closes and returns focus to the button, as the WAI-ARIA
 * listbox and menu-button patterns describe. One implementation serves both.
 */
import { createContext, forwardRef, useContext, useEffect, useId, useRef, useState } from 'react'
import type { ComponentType, ElementType, HTMLAttributes, KeyboardEvent, MouseEvent, ReactNode, Ref } from 'react'
import { createPortal } from 'react-dom'
import { useAnchor, useOutsidePress } from './anchor'
import type { Anchor } from './anchor'
import { chain, dataAttributes, resolveClassName, useInteraction, useListedOption } from './state'
import type { ClassName, Interaction } from './state'

type Kind = 'listbox' | 'menu'
const ITEM_ROLE = { listbox: 'option', menu: 'menuitem' } as const

interface PopupList {
  kind: Kind
  id: string
  open: boolean
  setOpen: (open: boolean, refocus?: boolean) => void
  active: string | null
  setActive: (id: string | null) => void
  selected: unknown
  values: Map<string, unknown>
  pick: (value: unknown, id: string) => void
  button: { current: HTMLButtonElement | null }
  panel: { current: HTMLElement | null }
}

const Context = createContext<PopupList | null>(null)

function usePopupList(component: string): PopupList {
  const list = useContext(Context)
  if (!list) throw new Error(`<${component}> must be inside <Listbox> or <Menu>`)
  return list
}

function Root({
  kind,
  value,
  onChange,
  children,
}: {
  kind: Kind
  value?: unknown
  onChange?: (value: never) => void
  children: ReactNode
}) {
  const id = useId()
  const [open, setOpenState] = useState(false)
  const [active, setActive] = useState<string | null>(null)
  const values = useRef(new Map<string, unknown>()).current
  const button = useRef<HTMLButtonElement | null>(null)
  const panel = useRef<HTMLElement | null>(null)
  const setOpen = (next: boolean, refocus = false) => {
    setOpenState(next)
    if (!next) setActive(null)
    if (!next && refocus) button.current?.focus()
  }
  const pick = (picked: unknown, itemId: string) => {
    setOpen(false, true)
    if (kind === 'listbox') (onChange as ((value: unknown) => void) | undefined)?.(picked)
    else document.getElementById(itemId)?.click()
  }
  return (
    <Context.Provider
      value={{ kind, id, open, setOpen, active, setActive, selected: value, values, pick, button, panel }}
    >
      {children}
    </Context.Provider>
  )
}

export function Listbox<T>(props: { value?: T; onChange?: (value: T) => void; children: ReactNode }) {
  return <Root kind="listbox" {...props} onChange={props.onChange as ((value: never) => void) | undefined} />
}

export function Menu({ children }: { children: ReactNode }) {
  return <Root kind="menu">{children}</Root>
}

type ButtonProps = Omit<HTMLAttributes<HTMLButtonElement>, 'className'> & {
  className?: ClassName<Interaction & { open: boolean; active: boolean; disabled: boolean; autofocus: boolean }>
  disabled?: boolean
}

function PopupButton({ className, ...props }: ButtonProps) {
  const list = usePopupList('ListboxButton')
  const { state, handlers } = useInteraction(props)
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(event.key)) {
      event.preventDefault()
      list.setOpen(true)
    }
  }
  return (
    <button
      ref={(element) => {
        list.button.current = element
      }}
      type="button"
      id={`${list.id}-button`}
      aria-haspopup={list.kind}
      aria-expanded={list.open}
      aria-controls={list.open ? `${list.id}-items` : undefined}
      {...props}
      {...handlers}
      {...dataAttributes({ open: list.open, focus: state.focus, hover: state.hover })}
      onClick={chain(() => list.setOpen(!list.open), props.onClick)}
      onKeyDown={chain(onKeyDown, props.onKeyDown)}
      className={resolveClassName(className, {
        ...state,
        open: list.open,
        active: list.open,
        disabled: props.disabled === true,
        autofocus: false,
      })}
    />
  )
}

function items(panel: HTMLElement | null, kind: Kind): HTMLElement[] {
  return panel
    ? [...panel.querySelectorAll<HTMLElement>(`[role="${ITEM_ROLE[kind]}"]:not([aria-disabled="true"])`)]
    : []
}

type PanelProps = Omit<HTMLAttributes<HTMLElement>, 'className'> & {
  as?: ElementType
  className?: ClassName<{ open: boolean }>
  anchor?: Anchor
  transition?: boolean
  static?: boolean
  modal?: boolean
  portal?: boolean
}

function PopupPanel({
  as: As = 'div',
  className,
  anchor,
  transition: _transition,
  static: _static,
  modal: _modal,
  portal: _portal,
  children,
  ...props
}: PanelProps) {
  const list = usePopupList('ListboxOptions')
  useAnchor(list.button, list.panel, anchor ?? { to: 'bottom' }, children)
  useOutsidePress(list.open, [list.button, list.panel], () => list.setOpen(false))
  useEffect(() => {
    if (!list.open) return
    list.panel.current?.focus({ preventScroll: true })
    const all = items(list.panel.current, list.kind)
    const chosen = all.find((item) => item.getAttribute('aria-selected') === 'true') ?? all[0]
    list.setActive(chosen?.id ?? null)
    // Only when it opens; moving the active item must not reset it.
  }, [list.open])
  if (!list.open) return null
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const all = items(list.panel.current, list.kind)
    const at = all.findIndex((item) => item.id === list.active)
    const moves: Record<string, number> = {
      ArrowDown: Math.min(at + 1, all.length - 1),
      ArrowUp: Math.max(at - 1, 0),
      Home: 0,
      End: all.length - 1,
    }
    if (event.key in moves) {
      event.preventDefault()
      list.setActive(all[moves[event.key] ?? 0]?.id ?? null)
    } else if ((event.key === 'Enter' || event.key === ' ') && list.active) {
      event.preventDefault()
      list.pick(list.values.get(list.active), list.active)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      list.setOpen(false, true)
    } else if (event.key === 'Tab') {
      list.setOpen(false)
    }
  }
  return createPortal(
    <As
      ref={(element: HTMLElement | null) => {
        list.panel.current = element
      }}
      id={`${list.id}-items`}
      role={list.kind}
      aria-labelledby={`${list.id}-button`}
      aria-activedescendant={list.active ?? undefined}
      tabIndex={0}
      {...props}
      data-open=""
      onKeyDown={chain(onKeyDown, props.onKeyDown)}
      className={resolveClassName(className, { open: true })}
    >
      {children}
    </As>,
    document.body,
  )
}

type ItemProps = Omit<HTMLAttributes<HTMLElement>, 'className'> & {
  as?: ElementType | ComponentType<Record<string, unknown>>
  value?: unknown
  disabled?: boolean
  href?: string
  newWindow?: boolean
  className?: ClassName<{ focus: boolean; active: boolean; selected: boolean; disabled: boolean }>
}

const PopupItem = forwardRef(function PopupItem(
  { as: As = 'div', value, disabled = false, className, ...props }: ItemProps,
  ref: Ref<HTMLElement>,
) {
  const list = usePopupList('ListboxOption')
  const id = useId()
  const active = list.active === id
  const selected = list.kind === 'listbox' && Object.is(list.selected, value)
  useListedOption(list.values, id, value, active)
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if (disabled) return event.preventDefault()
    if (list.kind === 'listbox') list.pick(value, id)
    else list.setOpen(false)
  }
  return (
    <As
      ref={ref}
      id={id}
      role={ITEM_ROLE[list.kind]}
      tabIndex={-1}
      aria-selected={list.kind === 'listbox' ? selected : undefined}
      aria-disabled={disabled || undefined}
      {...props}
      {...dataAttributes({ focus: active, active, selected, disabled })}
      onMouseMove={chain(() => !disabled && !active && list.setActive(id), props.onMouseMove)}
      onClick={chain(onClick, props.onClick)}
      className={resolveClassName(className, { focus: active, active, selected, disabled })}
    />
  )
})

export const ListboxButton = PopupButton
export const ListboxOptions = PopupPanel
export const ListboxOption = PopupItem
export const MenuButton = PopupButton
export const MenuItems = PopupPanel
export const MenuItem = PopupItem
