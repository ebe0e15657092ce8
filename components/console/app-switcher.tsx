import { useRef } from 'react'
import type { App } from '../demo/sandbox-api'
import { Icon } from './icons'
import { SearchList, type Choice } from './search-list'
import { useDismiss } from './use-dismiss'

/**
 * The top bar's app switcher: the selected app, and a search over the team's apps under it
 * (`/` opens it). Esc, a click elsewhere or the focus leaving closes it.
 */
export function AppSwitcher({
  apps,
  selected,
  open,
  setOpen,
  onSelect,
  onCreate,
  canCreate,
}: {
  apps: App[]
  selected?: App
  open: boolean
  setOpen: (open: boolean) => void
  onSelect: (slug: string) => void
  onCreate: () => void
  canCreate: boolean
}) {
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  useDismiss(open, panel, button, () => setOpen(false))
  const close = (focusButton: boolean) => {
    setOpen(false)
    if (focusButton) button.current?.focus()
  }
  const choices: Choice[] = [
    ...apps.map((a) => ({
      id: `app-${a.slug}`,
      group: 'Apps',
      label: a.name,
      keywords: a.slug,
      hint: (
        <>
          <code>{a.slug}</code>
          {a.private ? ' · private' : ''}
          {a.slug === selected?.slug ? ' · current' : ''}
        </>
      ),
      run: () => {
        onSelect(a.slug)
        close(true)
      },
    })),
    ...(canCreate
      ? [
          {
            id: 'create-app',
            group: 'Actions',
            label: 'Create an app',
            run: () => {
              close(false)
              onCreate()
            },
          },
        ]
      : []),
  ]
  return (
    <div className="fc-switcher">
      <button
        ref={button}
        type="button"
        className="fc-switcher-btn"
        aria-expanded={open}
        aria-haspopup="listbox"
        onClick={() => setOpen(!open)}
      >
        <span className="ferry-sr-only">App: </span>
        <span className="fc-switcher-name">
          {selected ? selected.name : apps.length ? 'Choose an app' : 'No apps yet'}
        </span>
        <Icon name="chevrons" size={16} />
      </button>
      {open ? (
        <div ref={panel} className="fc-popover fc-switcher-panel">
          <SearchList
            label="Search apps"
            placeholder="Search apps…"
            choices={choices}
            empty={apps.length ? 'No app matches.' : 'No apps yet.'}
          />
        </div>
      ) : null}
    </div>
  )
}
