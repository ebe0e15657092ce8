/**
 * A page's static content (lib/static-content). On the server it wraps the MDX content in the
 * marked element. In the browser it renders that element without children: while hydrating, it
 * keeps the HTML the server sent (React does not touch an element's inner HTML while hydrating
 * `dangerouslySetInnerHTML`, and an unchanged string is never written again); after a client-side
 * navigation, it shows the page's content fetched by content-cache.ts. Links, code buttons and
 * tabs inside work by delegation (behaviours.ts), so nothing in the content needs hydrating.
 */
import { useRouter } from 'next/router'
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { useIntersectionObserver, useSlugs } from 'nextra-theme-docs'
import { closeTryIt } from '../api/try-it/toggle'
import { watchScrollable } from '../scrollable-table'
import { contentPath, readContent, rememberContent } from './content-cache'
import { CONTENT_ATTRIBUTE, CONTENT_CLASS } from './content-marker'

const KEEP_SERVER_HTML = { __html: '' }
const marker = { [CONTENT_ATTRIBUTE]: '' }
const noSubscription = () => () => {}

/** True when this component's first render hydrated server HTML; it stays what it was. */
function useHydrated(): boolean {
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  )
  const [first] = useState(hydrating)
  return first
}

/**
 * What the theme's headings do for React-rendered content: each heading's anchor is observed, so
 * the table of contents marks the section being read; and wide tables become tab stops.
 */
function useContentBehaviour(ref: React.RefObject<HTMLDivElement | null>, html: string | undefined) {
  const observer = useIntersectionObserver()
  const slugs = useSlugs()
  useEffect(() => {
    const root = ref.current
    if (!root) return
    const stops = [...root.querySelectorAll<HTMLElement>('table')].map(watchScrollable)
    const anchors = [...root.querySelectorAll<HTMLAnchorElement>('a.subheading-anchor')]
    if (observer) {
      anchors.forEach((anchor, index) => {
        const id = anchor.parentElement?.id
        if (!id) return
        slugs.set(anchor, [id, index + 1])
        observer.observe(anchor)
      })
    }
    return () => {
      stops.forEach((stop) => stop())
      for (const anchor of anchors) {
        observer?.unobserve(anchor)
        slugs.delete(anchor)
      }
    }
  }, [ref, observer, slugs, html])
}

/** The HTML of a page the server sent is kept when the reader leaves it, for coming back (Try it closed). */
function useRememberedOnLeave(ref: React.RefObject<HTMLDivElement | null>, path: string, hydrated: boolean) {
  useEffect(() => {
    const root = ref.current
    return () => {
      if (!hydrated || !root) return
      const copy = root.cloneNode(true)
      if (!(copy instanceof HTMLElement)) return
      closeTryIt(copy)
      rememberContent(path, copy.innerHTML)
    }
  }, [ref, path, hydrated])
}

function ClientContent() {
  const hydrated = useHydrated()
  const { asPath } = useRouter()
  const path = contentPath(asPath)
  const html = hydrated ? undefined : readContent(path)
  const ref = useRef<HTMLDivElement>(null)
  useContentBehaviour(ref, html)
  useRememberedOnLeave(ref, path, hydrated)
  return (
    <div
      ref={ref}
      className={CONTENT_CLASS}
      {...marker}
      dangerouslySetInnerHTML={html === undefined ? KEEP_SERVER_HTML : { __html: html }}
      suppressHydrationWarning
    />
  )
}

export function StaticContent({ children }: { children?: ReactNode }) {
  if (children !== undefined)
    return (
      <div className={CONTENT_CLASS} {...marker}>
        {children}
      </div>
    )
  return <ClientContent />
}
