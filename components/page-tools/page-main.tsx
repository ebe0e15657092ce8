/**
 * The theme's `main` slot: the version notice, then, on every page with a Markdown twin (docs,
 * API reference, posts), the copy-page button above the content and "Was this page helpful?"
 * below it. Both are markup only; their code loads on first use (install.ts).
 */
import type { ReactNode } from 'react'
import { useRouter } from 'next/router'
import { useConfig } from 'nextra-theme-docs'
import { siteConfig } from '../../site.config'
import { hasTwin, twinPath } from '../../lib/markdown-twins/routes'
import { VersionNotice } from '../version-switch'

function CopyPageButton({ twin }: { twin: string }) {
  return (
    <div className="ferry-page-menu">
      <button
        type="button"
        id="ferry-page-menu-button"
        className="ferry-page-menu-button"
        aria-haspopup="menu"
        aria-expanded="false"
        data-ferry-page-menu={twin}
      >
        Copy page
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </button>
    </div>
  )
}

function PageFeedback() {
  const link = { href: siteConfig.newIssue, target: '_blank', rel: 'noopener' }
  return (
    <aside className="ferry-page-feedback" aria-labelledby="ferry-page-feedback-question">
      <p id="ferry-page-feedback-question">Was this page helpful?</p>
      <a {...link} data-ferry-feedback="yes">
        Yes
      </a>
      <a {...link} data-ferry-feedback="no">
        No
      </a>
    </aside>
  )
}

export function PageMain({ children }: { children: ReactNode }) {
  const { filePath, frontMatter } = useConfig()
  const path = useRouter().asPath.split(/[?#]/)[0] ?? '/'
  const twin = path !== '/' && hasTwin(filePath, frontMatter) ? twinPath(path) : undefined
  return (
    <VersionNotice>
      {twin && <CopyPageButton key={twin} twin={twin} />}
      {children}
      {twin && <PageFeedback key={twin} />}
    </VersionNotice>
  )
}
