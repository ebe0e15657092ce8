import Link from 'next/link'
import { useRouter } from 'next/router'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { PageHit, SearchData } from './search-index'

type Status = 'loading' | 'ready' | 'error'

/** /search?q=…: the query lives in the URL so results can be shared and survive a reload. */
export function SearchPage() {
  const router = useRouter()
  const urlQuery = typeof router.query.q === 'string' ? router.query.q : ''
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState<Status>('loading')
  const searchRef = useRef<((q: string) => PageHit[]) | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (router.isReady) setQuery(urlQuery)
  }, [router.isReady, urlQuery])

  useEffect(() => {
    let cancelled = false
    setStatus('loading')
    Promise.all([
      fetch(`${router.basePath}/_next/static/chunks/nextra-data-${router.locale ?? 'en-US'}.json`).then((r) => {
        if (!r.ok) throw new Error(`search index: HTTP ${r.status}`)
        return r.json() as Promise<SearchData>
      }),
      import('./search-index'),
    ])
      .then(([data, mod]) => {
        if (cancelled) return
        searchRef.current = mod.createSearch(data)
        setStatus('ready')
      })
      .catch(() => !cancelled && setStatus('error'))
    return () => {
      cancelled = true
    }
  }, [router.basePath, router.locale, attempt])

  const results = useMemo(
    () => (status === 'ready' && searchRef.current ? searchRef.current(query) : []),
    [query, status],
  )

  const onChange = (value: string) => {
    setQuery(value)
    void router.replace({ pathname: '/search', query: value ? { q: value } : {} }, undefined, {
      shallow: true,
      scroll: false,
    })
  }

  return (
    <div className="ferry-search">
      <h1>Search</h1>
      <form role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="ferry-search-input">Search the docs and the blog</label>
        <input
          id="ferry-search-input"
          type="search"
          value={query}
          autoComplete="off"
          placeholder="e.g. rollout, signed link, Squirrel"
          onChange={(e) => onChange(e.target.value)}
        />
      </form>
      <div aria-live="polite" className="ferry-search-status">
        {status === 'loading' && <p>Loading the search index…</p>}
        {status === 'error' && (
          <p>
            The search index could not be loaded.{' '}
            <button type="button" onClick={() => setAttempt((n) => n + 1)}>
              Retry
            </button>
          </p>
        )}
        {status === 'ready' && query.trim() && (
          <p>
            {results.length === 0
              ? `No pages match “${query.trim()}”.`
              : `${results.length} page${results.length === 1 ? '' : 's'} match “${query.trim()}”.`}
          </p>
        )}
      </div>
      <ol className="ferry-search-results">
        {results.map((page) => (
          <li key={page.route}>
            <span className="ferry-search-section">{page.section}</span>
            <h2>
              <Link href={page.route}>{page.pageTitle}</Link>
            </h2>
            <ul>
              {page.hits.map((hit) => (
                <li key={hit.url + hit.excerpt}>
                  <Link href={hit.url}>{hit.title}</Link>
                  {hit.excerpt && <p>{hit.excerpt}</p>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </div>
  )
}
