import { useId, useRef } from 'react'
import { Icon } from './icons'
import type { Session } from './session'
import type { ThemeChoice } from './theme'
import { useDismiss } from './use-dismiss'

const THEMES: ReadonlyArray<[ThemeChoice, string]> = [
  ['system', 'System'],
  ['light', 'Light'],
  ['dark', 'Dark'],
]

const initials = (name: string) =>
  name
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('')

/** Who is signed in, in which team; the theme, the shortcuts and signing out. */
export function UserMenu({
  session,
  open,
  setOpen,
  theme,
  setTheme,
  onShortcuts,
  onSignOut,
}: {
  session: Session
  open: boolean
  setOpen: (open: boolean) => void
  theme: ThemeChoice
  setTheme: (t: ThemeChoice) => void
  onShortcuts: () => void
  onSignOut: () => void
}) {
  const id = useId()
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  useDismiss(open, panel, button, () => setOpen(false))
  const { user, team } = session
  return (
    <div className="fc-user">
      <button
        ref={button}
        type="button"
        className="fc-avatar-btn"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        <span className="fc-avatar" aria-hidden="true">
          {initials(user.name || user.email)}
        </span>
        <span className="ferry-sr-only">Account: {user.email}</span>
      </button>
      <div ref={panel} id={`${id}-panel`} className="fc-popover fc-user-panel" hidden={!open}>
        <div className="fc-user-who">
          <strong>{user.name || user.email}</strong>
          <span>{user.email}</span>
          <span>
            {user.role === 'admin' ? 'Admin' : 'Member'} of <strong>{team.name}</strong>
          </span>
        </div>
        <fieldset className="fc-theme">
          <legend>Theme</legend>
          <div className="fc-segmented">
            {THEMES.map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name={`${id}-theme`}
                  value={value}
                  checked={theme === value}
                  onChange={() => setTheme(value)}
                />
                <span>{label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <button
          type="button"
          className="fc-menu-item"
          onClick={() => {
            setOpen(false)
            onShortcuts()
          }}
        >
          <Icon name="keyboard" size={16} /> Keyboard shortcuts <kbd>?</kbd>
        </button>
        <button type="button" className="fc-menu-item" onClick={onSignOut}>
          <Icon name="signout" size={16} /> Sign out
        </button>
      </div>
    </div>
  )
}
