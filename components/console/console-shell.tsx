import { useEffect, useId, useState, type ReactNode } from 'react'
import type { App, Version } from '../demo/sandbox-api'
import { AppSwitcher } from './app-switcher'
import { CommandPalette } from './command-palette'
import { focusLater } from './focus-later'
import { HelpSheet } from './help-sheet'
import { Icon } from './icons'
import type { Choice } from './search-list'
import type { Session } from './session'
import { PALETTE_KEYS, useShortcuts } from './shortcuts'
import { useTheme } from './theme'
import { UserMenu } from './user-menu'
import { go, type View, type ViewInfo } from './views'

const CREATE_APP = 'form.ferry-create-app input'

/**
 * Ferry Console's frame, around whichever view is open: a top bar (app switcher, search, theme,
 * account), the views down the left (a menu on a phone), the command palette (Ctrl/⌘K) and the
 * shortcuts sheet (`?`). Views render in `children`, under the view's title.
 */
export function ConsoleShell({
  session,
  views,
  current,
  apps,
  selected,
  onSelectApp,
  versions,
  canCreateApp,
  onSignOut,
  children,
}: {
  session: Session
  views: readonly ViewInfo[]
  current: View
  apps: App[]
  selected?: App
  onSelectApp: (slug: string) => void
  versions?: Version[]
  canCreateApp: boolean
  onSignOut: () => void
  children: ReactNode
}) {
  const id = useId()
  const theme = useTheme()
  const [palette, setPalette] = useState(false)
  const [help, setHelp] = useState(false)
  const [switcher, setSwitcher] = useState(false)
  const [account, setAccount] = useState(false)
  const [menu, setMenu] = useState(false)
  const info = views.find((v) => v.id === current)
  useEffect(() => setMenu(false), [current])
  useShortcuts({
    palette: () => setPalette((open) => !open),
    help: () => setHelp(true),
    apps: () => setSwitcher(true),
    view: (v) => views.some((x) => x.id === v) && go(v),
  })
  const createApp = () => {
    go('settings')
    focusLater(CREATE_APP)
  }
  const choices: Choice[] = [
    ...apps.map((a) => ({
      id: `app-${a.slug}`,
      group: 'Apps',
      label: a.name,
      keywords: `${a.slug} switch app`,
      hint: a.slug === selected?.slug ? 'current app' : a.slug,
      run: () => onSelectApp(a.slug),
    })),
    ...(versions ?? []).map((v) => {
      const what = `${v.version} (${v.channel}, ${v.platform}/${v.arch})`
      return {
        id: `version-${v.id}`,
        group: selected ? `Versions of ${selected.name}` : 'Versions',
        label: `${v.version} · ${v.channel} · ${v.platform}/${v.arch}`,
        keywords: 'version',
        hint: v.published ? 'published' : 'draft',
        run: () => {
          go('releases')
          focusLater(`[aria-label="Version ${CSS.escape(what)}"]`)
        },
      }
    }),
    ...views.map((v) => ({
      id: `view-${v.id}`,
      group: 'Go to',
      label: v.title,
      keywords: 'go view page',
      hint: (
        <>
          <kbd>g</kbd> <kbd>{v.key}</kbd>
        </>
      ),
      run: () => go(v.id),
    })),
    ...(canCreateApp ? [{ id: 'create-app', group: 'Actions', label: 'Create an app', run: createApp }] : []),
    {
      id: 'upload',
      group: 'Actions',
      label: 'Upload a version',
      keywords: 'publish release',
      run: () => {
        go('releases')
        focusLater('form.ferry-upload input')
      },
    },
    {
      id: 'token',
      group: 'Actions',
      label: 'Create an API token',
      keywords: 'ci',
      run: () => {
        go('tokens')
        focusLater('.ferry-tokens form input')
      },
    },
    {
      id: 'theme',
      group: 'Actions',
      label: theme.isDark ? 'Switch to the light theme' : 'Switch to the dark theme',
      keywords: 'theme colour color mode',
      run: () => theme.setChoice(theme.isDark ? 'light' : 'dark'),
    },
    ...(theme.choice === 'system'
      ? []
      : [
          {
            id: 'theme-system',
            group: 'Actions',
            label: 'Follow the system theme',
            keywords: 'theme colour color mode',
            run: () => theme.setChoice('system'),
          },
        ]),
    { id: 'help', group: 'Actions', label: 'Keyboard shortcuts', keywords: 'help keys', run: () => setHelp(true) },
    { id: 'sign-out', group: 'Actions', label: 'Sign out', keywords: 'log out', run: onSignOut },
  ]
  const groups = (['app', 'team'] as const).map((scope) => ({ scope, items: views.filter((v) => v.scope === scope) }))
  return (
    <div className="fc-shell">
      <a
        className="fc-skip"
        href={`#${id}-main`}
        onClick={(e) => {
          e.preventDefault()
          focusLater(`[id="${id}-main"]`)
        }}
      >
        Skip to the view
      </a>
      <header className="fc-top">
        <button
          type="button"
          className="fc-icon-btn fc-menu-btn"
          aria-expanded={menu}
          aria-controls={`${id}-nav`}
          onClick={() => setMenu(!menu)}
        >
          <Icon name={menu ? 'close' : 'menu'} />
          <span className="ferry-sr-only">Menu</span>
        </button>
        <a className="fc-brand" href="#releases">
          <img src="/console/favicon.svg" alt="" width="24" height="24" />
          <span>Ferry</span>
        </a>
        <span className="fc-slash" aria-hidden="true">
          /
        </span>
        <span className="fc-team" title="Team">
          {session.team.name}
        </span>
        <span className="fc-slash fc-team-slash" aria-hidden="true">
          /
        </span>
        <AppSwitcher
          apps={apps}
          selected={selected}
          open={switcher}
          setOpen={setSwitcher}
          onSelect={onSelectApp}
          onCreate={createApp}
          canCreate={canCreateApp}
        />
        <div className="fc-top-end">
          <button type="button" className="fc-search-btn" onClick={() => setPalette(true)}>
            <Icon name="search" size={16} />
            <span className="fc-search-btn-text">Search…</span>
            <span className="ferry-sr-only"> (command palette)</span>
            <span className="fc-keys" aria-hidden="true">
              {PALETTE_KEYS.map((k) => (
                <kbd key={k}>{k}</kbd>
              ))}
            </span>
          </button>
          <button
            type="button"
            className="fc-icon-btn"
            aria-pressed={theme.isDark}
            onClick={() => theme.setChoice(theme.isDark ? 'light' : 'dark')}
            title={theme.isDark ? 'Switch to the light theme' : 'Switch to the dark theme'}
          >
            <Icon name={theme.isDark ? 'moon' : 'sun'} />
            <span className="ferry-sr-only">Dark theme</span>
          </button>
          <UserMenu
            session={session}
            open={account}
            setOpen={setAccount}
            theme={theme.choice}
            setTheme={theme.setChoice}
            onShortcuts={() => setHelp(true)}
            onSignOut={onSignOut}
          />
        </div>
      </header>
      <div className="fc-frame">
        <nav id={`${id}-nav`} aria-label="Console views" className="fc-side" data-open={menu}>
          {groups.map(({ scope, items }) =>
            items.length ? (
              <div key={scope} className="fc-side-group">
                <p className="fc-side-title" id={`${id}-${scope}`}>
                  {scope === 'app' ? (selected ? selected.name : 'App') : session.team.name}
                </p>
                <ul aria-labelledby={`${id}-${scope}`}>
                  {items.map((v) => (
                    <li key={v.id}>
                      <a href={`#${v.id}`} aria-current={v.id === current ? 'page' : undefined}>
                        <Icon name={v.id} />
                        {v.title}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null,
          )}
          <button type="button" className="fc-side-keys" onClick={() => setHelp(true)}>
            <Icon name="keyboard" size={16} /> Shortcuts <kbd>?</kbd>
          </button>
        </nav>
        <main id={`${id}-main`} className="fc-main ferry-dash ferry-console" tabIndex={-1}>
          <div className="fc-page-head">
            <p className="fc-eyebrow">
              {info?.scope === 'app'
                ? selected
                  ? `${selected.name} · ${selected.slug}`
                  : 'No app selected'
                : session.team.name}
            </p>
            <h1>{info?.title ?? 'Releases'}</h1>
          </div>
          {children}
        </main>
      </div>
      {palette ? <CommandPalette choices={choices} onClose={() => setPalette(false)} /> : null}
      {help ? <HelpSheet onClose={() => setHelp(false)} /> : null}
    </div>
  )
}
