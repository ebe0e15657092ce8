/**
 * Headless UI's Tab family as Nextra's <Tabs> uses it: the WAI-ARIA tabs pattern with automatic
 * activation (arrow keys, Home and End move and select). Tabs and panels know their index from
 * their position, so the server renders the same ids and `aria-controls` the browser hydrates.
 */
import { Children, createContext, forwardRef, isValidElement, useContext, useId, useState } from 'react'
import type { HTMLAttributes, KeyboardEvent, ReactNode } from 'react'
import { chain, dataAttributes, resolveClassName, useInteraction } from './state'
import type { ClassName, Interaction } from './state'

interface Group {
  id: string
  selected: number
  select: (index: number) => void
}

const GroupContext = createContext<Group | null>(null)
const IndexContext = createContext(0)

function useGroup(component: string): Group {
  const group = useContext(GroupContext)
  if (!group) throw new Error(`<${component}> must be inside <TabGroup>`)
  return group
}

type Div<S> = Omit<HTMLAttributes<HTMLDivElement>, 'className' | 'onChange' | 'defaultValue'> & {
  className?: ClassName<S>
}

export function TabGroup({
  selectedIndex,
  defaultIndex = 0,
  onChange,
  className,
  children,
  ...props
}: Div<{ selectedIndex: number }> & {
  selectedIndex?: number
  defaultIndex?: number
  onChange?: (index: number) => void
  manual?: boolean
  vertical?: boolean
}) {
  const id = useId()
  const [own, setOwn] = useState(defaultIndex)
  const selected = selectedIndex ?? own
  const select = (index: number) => {
    if (selectedIndex === undefined) setOwn(index)
    onChange?.(index)
  }
  return (
    <GroupContext.Provider value={{ id, selected, select }}>
      <div {...props} className={resolveClassName(className, { selectedIndex: selected })}>
        {children}
      </div>
    </GroupContext.Provider>
  )
}

/** Each element child learns its position; text and empty children take none. */
function indexed(children: ReactNode): ReactNode {
  return Children.toArray(children)
    .filter(isValidElement)
    .map((child, index) => (
      <IndexContext.Provider key={child.key ?? index} value={index}>
        {child}
      </IndexContext.Provider>
    ))
}

export function TabList({ className, children, ...props }: Div<{ selectedIndex: number }>) {
  const { selected } = useGroup('TabList')
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      {...props}
      className={resolveClassName(className, { selectedIndex: selected })}
    >
      {indexed(children)}
    </div>
  )
}

type TabState = Interaction & { selected: boolean; disabled: boolean; active: boolean; autofocus: boolean }

function move(event: KeyboardEvent<HTMLButtonElement>, select: (index: number) => void) {
  const keys: Record<string, (current: number, last: number) => number> = {
    ArrowRight: (current, last) => (current === last ? 0 : current + 1),
    ArrowLeft: (current, last) => (current === 0 ? last : current - 1),
    Home: () => 0,
    End: (_, last) => last,
  }
  const step = keys[event.key]
  const list = event.currentTarget.closest('[role="tablist"]')
  if (!step || !list) return
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')]
  const current = tabs.indexOf(event.currentTarget)
  const next = tabs[step(current, tabs.length - 1)]
  if (!next) return
  event.preventDefault()
  next.focus()
  select(Number(next.dataset.index))
}

export const Tab = forwardRef<
  HTMLButtonElement,
  Omit<HTMLAttributes<HTMLButtonElement>, 'className'> & { className?: ClassName<TabState>; disabled?: boolean }
>(function Tab({ className, disabled = false, ...props }, ref) {
  const group = useGroup('Tab')
  const index = useContext(IndexContext)
  const { state, handlers } = useInteraction(props)
  const selected = group.selected === index
  const full: TabState = { ...state, selected, disabled, active: false, autofocus: false }
  return (
    <button
      ref={ref}
      type="button"
      role="tab"
      id={`${group.id}-tab-${index}`}
      aria-controls={`${group.id}-panel-${index}`}
      aria-selected={selected}
      tabIndex={selected ? 0 : -1}
      disabled={disabled}
      data-index={index}
      {...props}
      {...handlers}
      {...dataAttributes({ selected, focus: state.focus, hover: state.hover, disabled })}
      onClick={chain(() => group.select(index), props.onClick)}
      onKeyDown={chain((event: KeyboardEvent<HTMLButtonElement>) => move(event, group.select), props.onKeyDown)}
      className={resolveClassName(className, full)}
    />
  )
})

export function TabPanels({ className, children, ...props }: Div<{ selectedIndex: number }>) {
  const { selected } = useGroup('TabPanels')
  return (
    <div {...props} className={resolveClassName(className, { selectedIndex: selected })}>
      {indexed(children)}
    </div>
  )
}

/** A panel not selected stays in the page, hidden, unless `unmount` (Headless UI's default) says otherwise. */
export function TabPanel({
  className,
  unmount = true,
  static: always = false,
  children,
  ...props
}: Div<{ selected: boolean; focus: boolean }> & { unmount?: boolean; static?: boolean }) {
  const group = useGroup('TabPanel')
  const index = useContext(IndexContext)
  const { state, handlers } = useInteraction(props)
  const selected = group.selected === index
  if (!selected && unmount && !always) return null
  return (
    <div
      role="tabpanel"
      id={`${group.id}-panel-${index}`}
      aria-labelledby={`${group.id}-tab-${index}`}
      tabIndex={selected ? 0 : -1}
      hidden={!selected}
      style={selected ? undefined : { display: 'none' }}
      {...props}
      {...handlers}
      {...dataAttributes({ selected, focus: state.focus })}
      className={resolveClassName(className, { selected, focus: state.focus })}
    >
      {children}
    </div>
  )
}
