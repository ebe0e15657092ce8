/**
 * Headless UI's Combobox as the theme's search box uses it: the WAI-ARIA combobox pattern with a
 * listbox popup. Focus stays in the input; the active option is named by aria-activedescendant.
 * Typing or ArrowDown opens the list, the first option becomes active, arrows move, Enter picks,
 * Escape or leaving the input closes it. Options are listed in document order.
 */
import { createContext, forwardRef, useContext, useId, useLayoutEffect, useRef, useState } from 'react'
import type {
  ComponentType,
  ElementType,
  HTMLAttributes,
  InputHTMLAttributes,
  KeyboardEvent,
  MouseEvent,
  ReactNode,
  Ref,
} from 'react'
import { createPortal } from 'react-dom'
import { useAnchor } from './anchor'
import type { Anchor } from './anchor'
import { chain, dataAttributes, resolveClassName, useInteraction, useListedOption } from './state'
import type { ClassName, Interaction } from './state'

interface ComboboxState {
  listboxId: string
  open: boolean
  setOpen: (open: boolean) => void
  active: string | null
  setActive: (id: string | null) => void
  values: Map<string, unknown>
  pick: (value: unknown) => void
  input: { current: HTMLInputElement | null }
}

const Context = createContext<ComboboxState | null>(null)

function useCombobox(component: string): ComboboxState {
  const state = useContext(Context)
  if (!state) throw new Error(`<${component}> must be inside <Combobox>`)
  return state
}

export function Combobox<T>({ onChange, children }: { onChange?: (value: T) => void; children: ReactNode }) {
  const listboxId = useId()
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState<string | null>(null)
  const values = useRef(new Map<string, unknown>()).current
  const input = useRef<HTMLInputElement | null>(null)
  const pick = (value: unknown) => {
    setOpen(false)
    setActive(null)
    onChange?.(value as T)
  }
  return (
    <Context.Provider value={{ listboxId, open, setOpen, active, setActive, values, pick, input }}>
      {children}
    </Context.Provider>
  )
}

function options(listboxId: string): HTMLElement[] {
  const list = document.getElementById(listboxId)
  return list ? [...list.querySelectorAll<HTMLElement>('[role="option"]:not([aria-disabled="true"])')] : []
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> & {
  className?: ClassName<Interaction & { open: boolean; disabled: boolean; autofocus: boolean }>
}

export const ComboboxInput = forwardRef<HTMLInputElement, InputProps>(function ComboboxInput(
  { className, ...props },
  ref,
) {
  const box = useCombobox('ComboboxInput')
  const { state, handlers } = useInteraction(props)
  const [focused, setFocused] = useState(false)
  const setRefs = (element: HTMLInputElement | null) => {
    box.input.current = element
    if (typeof ref === 'function') ref(element)
    else if (ref) ref.current = element
  }
  const step = (by: 1 | -1) => {
    const list = options(box.listboxId)
    if (list.length === 0) return
    const at = list.findIndex((option) => option.id === box.active)
    const next = at === -1 ? (by === 1 ? 0 : list.length - 1) : Math.min(Math.max(at + by, 0), list.length - 1)
    box.setActive(list[next]?.id ?? null)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (box.open) step(event.key === 'ArrowDown' ? 1 : -1)
      else box.setOpen(true)
    } else if (event.key === 'Enter' && box.open && box.active !== null) {
      event.preventDefault()
      if (box.values.has(box.active)) box.pick(box.values.get(box.active))
    } else if (event.key === 'Escape' && box.open) {
      event.preventDefault()
      box.setOpen(false)
    }
  }
  return (
    <input
      ref={setRefs}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={box.open}
      aria-controls={box.open ? box.listboxId : undefined}
      aria-activedescendant={box.open && box.active ? box.active : undefined}
      {...props}
      {...handlers}
      {...dataAttributes({ focus: focused, hover: state.hover, open: box.open })}
      onFocus={chain(() => setFocused(true), handlers.onFocus)}
      onBlur={chain(() => {
        setFocused(false)
        box.setOpen(false)
      }, handlers.onBlur)}
      onChange={chain(() => {
        box.setOpen(true)
        box.setActive(null)
      }, props.onChange)}
      onKeyDown={chain(onKeyDown, props.onKeyDown)}
      className={resolveClassName(className, {
        focus: focused,
        hover: state.hover,
        open: box.open,
        disabled: props.disabled === true,
        autofocus: props.autoFocus === true,
      })}
    />
  )
})

type OptionsProps = Omit<HTMLAttributes<HTMLDivElement>, 'className'> & {
  className?: ClassName<{ open: boolean }>
  anchor?: Anchor
  transition?: boolean
  static?: boolean
}

export function ComboboxOptions({
  className,
  anchor,
  transition: _transition,
  static: _static,
  children,
  ...props
}: OptionsProps) {
  const box = useCombobox('ComboboxOptions')
  const panel = useRef<HTMLDivElement | null>(null)
  useAnchor(box.input, panel, anchor, children)
  // The first option is active whenever none of the shown options is (typing clears it), so
  // Enter takes the top result. Checked after each render and on every change to the list's
  // DOM, whichever component changed it.
  const { open, listboxId, setActive } = box
  const active = useRef(box.active)
  active.current = box.active
  const check = useRef(() => {})
  check.current = () => {
    const list = options(listboxId)
    if (!list.some((option) => option.id === active.current)) setActive(list[0]?.id ?? null)
  }
  useLayoutEffect(() => {
    if (open) check.current()
  })
  useLayoutEffect(() => {
    if (!open || !panel.current) return
    const observer = new MutationObserver(() => check.current())
    observer.observe(panel.current, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [open])
  if (!box.open) return null
  const name = box.input.current?.getAttribute('aria-label') ?? box.input.current?.placeholder
  return createPortal(
    <div
      ref={panel}
      id={box.listboxId}
      role="listbox"
      aria-label={name || undefined}
      {...props}
      data-open=""
      className={resolveClassName(className, { open: true })}
    >
      {children}
    </div>,
    document.body,
  )
}

type OptionProps = Omit<HTMLAttributes<HTMLElement>, 'className'> & {
  as?: ElementType | ComponentType<Record<string, unknown>>
  value: unknown
  disabled?: boolean
  href?: string
  className?: ClassName<{ focus: boolean; active: boolean; selected: boolean; disabled: boolean }>
}

export const ComboboxOption = forwardRef(function ComboboxOption(
  { as: As = 'div', value, disabled = false, className, ...props }: OptionProps,
  ref: Ref<HTMLElement>,
) {
  const box = useCombobox('ComboboxOption')
  const id = useId()
  const active = box.active === id
  useListedOption(box.values, id, value, active)
  const onClick = (event: MouseEvent<HTMLElement>) => {
    // A new-tab or new-window click is the browser's; a plain click picks the option.
    if (disabled || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    box.pick(value)
  }
  return (
    <As
      ref={ref}
      id={id}
      role="option"
      aria-selected={active}
      aria-disabled={disabled || undefined}
      {...props}
      {...dataAttributes({ focus: active, active, disabled })}
      onMouseMove={chain(() => !disabled && !active && box.setActive(id), props.onMouseMove)}
      onMouseDown={chain((event: MouseEvent<HTMLElement>) => event.preventDefault(), props.onMouseDown)}
      onClick={chain(onClick, props.onClick)}
      className={resolveClassName(className, { focus: active, active, selected: false, disabled })}
    />
  )
})
