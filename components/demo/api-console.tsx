import dynamic from 'next/dynamic'

/**
 * swagger-ui is ~400 KB compressed: it loads only here, in the browser, after the page shell
 * has rendered (never in _app or on other pages).
 */
const SwaggerConsole = dynamic(() => import('./swagger-console'), {
  ssr: false,
  loading: () => (
    <p className="ferry-demo-loading" role="status">
      Loading the interactive reference…
    </p>
  ),
})

export function ApiConsole() {
  return (
    <section aria-labelledby="api-console-title" className="ferry-demo-console">
      <h2 id="api-console-title">Interactive reference</h2>
      <SwaggerConsole />
    </section>
  )
}
