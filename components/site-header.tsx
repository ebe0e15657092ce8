/**
 * The top of every page (the theme's `navbar` slot): skip links, the announcement bar, the
 * theme's navbar. The skip links come first in the tab order: "Skip to content" on every page,
 * "Skip to Try it" on an API operation page. The bar replaces the theme's own so that it can
 * say less on a phone and tell the navbar how tall it really is.
 */
import { Navbar, useConfig } from 'nextra-theme-docs'
import type { ComponentProps } from 'react'
import { siteConfig } from '../site.config'
import { XIcon } from './nextra-icons'
import { CONTENT_ID, TRY_IT_ID } from './skip-targets'

function SkipLinks() {
  const { frontMatter } = useConfig()
  return (
    <div className="ferry-skip-links">
      <a href={`#${CONTENT_ID}`}>Skip to content</a>
      {typeof frontMatter.operationId === 'string' && <a href={`#${TRY_IT_ID}`}>Skip to Try it</a>}
    </div>
  )
}

const { id, text, short, href } = siteConfig.announcement
/** Before the bar is painted: a dismissed bar stays hidden (the theme's class and localStorage value). */
const hideIfDismissed = `try{if(localStorage.getItem(${JSON.stringify(id)})==='0')document.body.classList.add('nextra-banner-hidden')}catch(e){}`
/**
 * Right after the bar, before the first paint: its height, kept as it wraps (width, font size,
 * zoom), in --ferry-banner-height, which the sticky navbar and the mobile menu stand below
 * (styles/site.css). Without it both assume one line.
 */
const trackHeight = `(function(){var b=document.currentScript.parentNode,r=document.documentElement.style;function s(){r.setProperty('--ferry-banner-height',b.offsetHeight+'px')}s();if(window.ResizeObserver)new ResizeObserver(s).observe(b)})()`

function AnnouncementBar() {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: hideIfDismissed }} />
      <section className="nextra-banner-container ferry-banner print:_hidden" aria-label="Announcement">
        <a className="ferry-banner-text" href={href}>
          <span className="ferry-banner-long">{text}</span>
          <span className="ferry-banner-short">{short}</span> <span aria-hidden="true">→</span>
        </a>
        <button
          type="button"
          className="ferry-banner-dismiss"
          aria-label="Dismiss banner"
          onClick={() => {
            try {
              localStorage.setItem(id, '0')
            } catch {
              // Without storage the bar is hidden on this page only.
            }
            document.body.classList.add('nextra-banner-hidden')
          }}
        >
          <XIcon height="16" />
        </button>
        <script dangerouslySetInnerHTML={{ __html: trackHeight }} />
      </section>
    </>
  )
}

export function SiteHeader(props: ComponentProps<typeof Navbar>) {
  return (
    <>
      <SkipLinks />
      <AnnouncementBar />
      <Navbar {...props} />
    </>
  )
}
