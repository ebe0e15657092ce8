/**
 * Frozen docs versions. Current docs live at /docs/<page>; a snapshot made by
 * `npm run docs:version <id>` lives at /docs/<id>/<page>. versions.json (written by that
 * script) lists each snapshot and its pages, so the browser knows where a link can go.
 */
import versionsFile from '../versions.json' with { type: 'json' }

/** `frozen`: the day (YYYY-MM-DD, UTC) `docs:version` froze it, also the date of its API changelog entry. */
export type DocsVersion = { id: string; label: string; pages: string[]; frozen?: string }

export const CURRENT = 'current'
export const CURRENT_LABEL = 'Next'
/** localStorage key for the reader's preferred docs version. */
export const PREFERRED_VERSION_KEY = 'docs-preferred-version'

export const versions: DocsVersion[] = versionsFile.versions

/** Pages that are never versioned: the API reference is generated from the live spec. */
const UNVERSIONED = /^api(\/|$)/

export type DocsLocation = { version: string; page: string }

/** Splits a pathname into docs version and page, or null when it is not a docs page. */
export function parseDocsPath(pathname: string, known: DocsVersion[] = versions): DocsLocation | null {
  const match = /^\/docs(?:\/(.*))?$/.exec(pathname.split(/[?#]/)[0]!.replace(/\/$/, ''))
  if (!match) return null
  const rest = match[1] ?? ''
  const [first, ...tail] = rest.split('/')
  const version = known.find((v) => v.id === first)
  if (version) return { version: version.id, page: tail.join('/') }
  return { version: CURRENT, page: rest }
}

export function isVersionable(page: string): boolean {
  return !UNVERSIONED.test(page)
}

/**
 * Where a docs page lives in the given version. Falls back to the version's first page when
 * the page did not exist yet in that version, and to current docs for unversioned pages.
 */
export function pathInVersion(page: string, version: string, known: DocsVersion[] = versions): string {
  if (version === CURRENT || !isVersionable(page)) return page ? `/docs/${page}` : '/docs'
  const target = known.find((v) => v.id === version)
  if (!target) return page ? `/docs/${page}` : '/docs'
  if (page && target.pages.includes(page)) return `/docs/${version}/${page}`
  return `/docs/${version}/${target.pages[0] ?? 'intro'}`
}

export function labelOf(version: string, known: DocsVersion[] = versions): string {
  return version === CURRENT ? CURRENT_LABEL : (known.find((v) => v.id === version)?.label ?? version)
}
