import Router from 'next/router'
import NProgress from 'nprogress'
import { useEffect } from 'react'

/** Route changes shorter than this show no bar at all (site spec §9). */
export const PROGRESS_DELAY_MS = 200

export function RouteProgress() {
  useEffect(() => {
    NProgress.configure({ showSpinner: false })
    let timer: ReturnType<typeof setTimeout> | undefined
    const start = () => {
      clearTimeout(timer)
      timer = setTimeout(() => NProgress.start(), PROGRESS_DELAY_MS)
    }
    const done = () => {
      clearTimeout(timer)
      NProgress.done()
    }
    Router.events.on('routeChangeStart', start)
    Router.events.on('routeChangeComplete', done)
    Router.events.on('routeChangeError', done)
    return () => {
      done()
      Router.events.off('routeChangeStart', start)
      Router.events.off('routeChangeComplete', done)
      Router.events.off('routeChangeError', done)
    }
  }, [])
  return null
}
