import Router, { useRouter } from 'next/router'
import Link from 'next/link'
import { useEffect, useState, type ReactNode } from 'react'
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

/** Navbar select: shows the version of the page being read and switches to the same page in another. */
export function VersionSwitch() {
  const { asPath } = useRouter()
  const location = parseDocsPath(asPath)
  if (!location || versions.length === 0) return null
  return (
    <label className="ferry-version-switch">
      <span className="sr-only">Docs version</span>
      <select
        aria-label="Docs version"
        value={location.version}
        onChange={(event) => {
          const version = event.target.value
          writePreferred(version)
          void Router.push(pathInVersion(location.page, version))
        }}
      >
        <option value={CURRENT}>{labelOf(CURRENT)}</option>
        {versions.map((v) => (
          <option key={v.id} value={v.id}>
            {v.label}
          </option>
        ))}
      </select>
    </label>
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
