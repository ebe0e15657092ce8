import dynamic from 'next/dynamic'
import { useEffect, useRef, useState } from 'react'

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
  const [wanted, setWanted] = useState(false)
  useEffect(() => {
    if (isOperationLink(window.location.hash)) {
      setWanted(true)
      return
    }
    const onHash = () => isOperationLink(window.location.hash) && setWanted(true)
    window.addEventListener('hashchange', onHash)
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setWanted(true)
    }, { rootMargin: '300px 0px' })
    if (section.current) observer.observe(section.current)
    return () => {
      window.removeEventListener('hashchange', onHash)
      observer.disconnect()
    }
  }, [])
  return (
    <section ref={section} aria-labelledby="api-console-title" className="ferry-demo-console">
      <h2 id="api-console-title">Interactive reference</h2>
      {wanted ? (
        <SwaggerConsole />
      ) : (
        <p className="ferry-demo-loading">
          The reference loads when you scroll here.{' '}
          <button type="button" className="ferry-btn" onClick={() => setWanted(true)}>
            Load it now
          </button>
        </p>
      )}
    </section>
  )
}
