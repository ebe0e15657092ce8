import dynamic from 'next/dynamic'
import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * swagger-ui is ~400 KB compressed and its first render is the page's heaviest main-thread work:
 * it loads only here, in the browser, and only once its section nears the viewport, or at once
 * for a deep link to an operation (`#/tag/operationId`).
 */
const SwaggerConsole = dynamic(() => import('./swagger-console'), {
  ssr: false,
  loading: () => (
    <p className="ferry-demo-loading" role="status">
      Loading the interactive reference…
    </p>
  ),
})

const isOperationLink = (hash: string) => hash.startsWith('#/')

export function ApiConsole() {
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const loadNow = useRef<HTMLButtonElement>(null)
  const [wanted, setWanted] = useState(false)
  // "Load it now" goes when the reference mounts. Tabbing to it scrolls it into view, which mounts
  // the reference at once, as does pressing it: either way, focus moves to the section's heading
  // instead of falling back to <body>.
  const load = useCallback(() => {
    if (loadNow.current && loadNow.current === document.activeElement) heading.current?.focus({ preventScroll: true })
    setWanted(true)
  }, [])
  useEffect(() => {
    if (isOperationLink(window.location.hash)) {
      setWanted(true)
      return
    }
    const onHash = () => isOperationLink(window.location.hash) && load()
    window.addEventListener('hashchange', onHash)
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load()
      },
      { rootMargin: '300px 0px' },
    )
    if (section.current) observer.observe(section.current)
    return () => {
      window.removeEventListener('hashchange', onHash)
      observer.disconnect()
    }
  }, [load])
  return (
    <section ref={section} aria-labelledby="api-console-title" className="ferry-demo-console">
      <h2 id="api-console-title" ref={heading} tabIndex={-1}>
        Interactive reference
      </h2>
      {wanted ? (
        <SwaggerConsole />
      ) : (
        <p className="ferry-demo-loading">
          The reference loads when you scroll here.{' '}
          <button type="button" className="ferry-btn" ref={loadNow} onClick={load}>
            Load it now
          </button>
        </p>
      )}
    </section>
  )
}
