import Router, { useRouter } from 'next/router'
import Link from 'next/link'
import { useEffect, useState, type ReactNode } from 'react'
import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from './headless'
import { CURRENT, PREFERRED_VERSION_KEY, labelOf, parseDocsPath, pathInVersion, versions } from '../lib/docs-versions'

function readPreferred(): string {
  try {
    const stored = localStorage.getItem(PREFERRED_VERSION_KEY)
    if (stored && (stored === CURRENT || versions.some((v) => v.id === stored))) return stored
  } catch {
    // Storage can be disabled; fall back to current docs.
  }
  return CURRENT
}

function writePreferred(version: string) {
  try {
    localStorage.setItem(PREFERRED_VERSION_KEY, version)
  } catch {
    // Without storage the choice lasts for this page only.
  }
}

/**
 * Navbar menu of docs versions: shows the version of the page being read and switches to the
 * same page in another. A listbox popup (the WAI-ARIA listbox pattern: arrows, Home, End, Enter,
 * Escape), styled like the theme toggle beside it, where a native select would not be.
 */
export function VersionSwitch() {
  const { asPath } = useRouter()
  const location = parseDocsPath(asPath)
  if (!location || versions.length === 0) return null
  const choices = [{ id: CURRENT, label: labelOf(CURRENT) }, ...versions.map((v) => ({ id: v.id, label: v.label }))]
  return (
    <div className="ferry-version-switch">
      <Listbox
        value={location.version}
        onChange={(version: string) => {
          if (version === location.version) return
          writePreferred(version)
          void Router.push(pathInVersion(location.page, version))
        }}
      >
        <ListboxButton className="ferry-version-button" aria-label={`Docs version: ${labelOf(location.version)}`}>
          <span aria-hidden="true">{labelOf(location.version)}</span>
          <svg width="12" height="12" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </ListboxButton>
        <ListboxOptions className="ferry-version-options" anchor={{ to: 'bottom end', gap: 4, padding: 8 }}>
          {choices.map((choice) => (
            <ListboxOption key={choice.id} value={choice.id} className="ferry-version-option">
              {choice.label}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </Listbox>
    </div>
  )
}

/**
 * Links into current docs (navbar, footer, home, blog) follow the reader's preferred version:
 * a click on /docs/getting-started goes to /docs/1.0/getting-started when 1.0 is preferred.
 * Capture phase, so it runs before next/link's own handler.
 */
export function useVersionedDocsLinks() {
  useEffect(() => {
    if (versions.length === 0) return
    const onClick = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!anchor || anchor.target === '_blank' || anchor.origin !== window.location.origin) return
      const location = parseDocsPath(anchor.pathname)
      if (!location || location.version !== CURRENT) return
      const preferred = readPreferred()
      if (preferred === CURRENT) return
      const target = pathInVersion(location.page, preferred) + anchor.hash
      if (target === anchor.pathname + anchor.hash) return
      event.preventDefault()
      event.stopPropagation()
      void Router.push(target)
    }
    window.addEventListener('click', onClick, true)
    return () => window.removeEventListener('click', onClick, true)
  }, [])
}

/** When a frozen docs version was frozen, as " on YYYY-MM-DD" (versions.json). */
const frozenOn = (id: string) => {
  const day = versions.find((v) => v.id === id)?.frozen
  return day ? ` on ${day}` : ''
}

/** Wraps page content (theme `main`): frozen versions say so, with a way back to current docs. */
export function VersionNotice({ children }: { children: ReactNode }) {
  const { asPath } = useRouter()
  const location = parseDocsPath(asPath)
  const [preferred, setPreferred] = useState(CURRENT)
  useEffect(() => setPreferred(readPreferred()), [asPath])
  const frozen = location && location.version !== CURRENT
  return (
    <>
      {frozen && (
        <div className="ferry-version-notice" role="note">
          You are reading the docs frozen as version {labelOf(location.version)}
          {frozenOn(location.version)}.{' '}
          <Link href={pathInVersion(location.page, CURRENT)} onClick={() => writePreferred(CURRENT)}>
            Read this page in the current docs
          </Link>
          {preferred === location.version ? ' (your saved version).' : '.'}
        </div>
      )}
      {children}
    </>
  )
}
