/**
 * When a link is hovered or touched, next/link prefetches its page's code with priority; the
 * page's static content (its HTML) is fetched at the same moment, so a navigation to it needs no
 * further round trip. Viewport prefetches (no priority) fetch code only. Registered before
 * constrained-prefetch.ts wraps the router, so data-saving connections skip both.
 */
import Router from 'next/router'
import { prefetchContent } from './content-cache'

const wrapped = new WeakSet<object>()

export function prefetchContentOnIntent(): void {
  Router.ready(() => {
    const router = Router.router
    if (!router || wrapped.has(router)) return
    wrapped.add(router)
    const prefetch = router.prefetch.bind(router)
    router.prefetch = (url, asPath, options) => {
      if (options?.priority) prefetchContent(asPath ?? url)
      return prefetch(url, asPath, options)
    }
  })
}
