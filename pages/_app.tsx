import type { AppProps } from 'next/app'
import { useRouter } from 'next/router'
import '../styles/theme.generated.css'
import 'nprogress/nprogress.css'
import '../styles/site.css'
import '../styles/blog.css'
import '../styles/api.css'
import { skipPrefetchOnConstrainedConnections } from '../components/constrained-prefetch'
import { PageErrorBoundary } from '../components/error-boundary'
import { RouteProgress } from '../components/route-progress'
import { useVersionedDocsLinks } from '../components/version-switch'

// Before the first render: no link may prefetch on a data-saving or 2g connection.
skipPrefetchOnConstrainedConnections()

export default function App({ Component, pageProps }: AppProps) {
  const { asPath } = useRouter()
  useVersionedDocsLinks()
  return (
    <>
      <RouteProgress />
      <PageErrorBoundary resetKey={asPath}>
        <Component {...pageProps} />
      </PageErrorBoundary>
    </>
  )
}
