import type { AppProps } from 'next/app'
import { useRouter } from 'next/router'
import { Suspense } from 'react'
import '../styles/theme.generated.css'
import 'nprogress/nprogress.css'
import '../styles/colour-tokens.css'
import '../styles/site.css'
import '../styles/content.css'
import '../styles/blog.css'
import '../styles/api.css'
import '../styles/page-tools.css'
import { skipPrefetchOnConstrainedConnections } from '../components/constrained-prefetch'
import { installContentBehaviours } from '../components/content/behaviours'
import { prefetchContentOnIntent } from '../components/content/intent-prefetch'
import { PageErrorBoundary } from '../components/error-boundary'
import { HydrationSignal } from '../components/hydration-signal'
import { RouteProgress } from '../components/route-progress'
import { useVersionedDocsLinks } from '../components/version-switch'

// Before the first render. Content prefetching is registered first, so the connection guard
// wraps it too: no link may prefetch on a data-saving or 2g connection.
prefetchContentOnIntent()
skipPrefetchOnConstrainedConnections()
installContentBehaviours()

export default function App({ Component, pageProps }: AppProps) {
  const { asPath } = useRouter()
  useVersionedDocsLinks()
  return (
    <>
      <RouteProgress />
      <PageErrorBoundary resetKey={asPath}>
        {/* The page hydrates after this shell, in slices the browser can interleave with input
            (React hydrates a server-rendered Suspense boundary at low priority). */}
        <Suspense>
          <Component {...pageProps} />
          <HydrationSignal />
        </Suspense>
      </PageErrorBoundary>
    </>
  )
}
