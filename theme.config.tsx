import type { DocsThemeConfig } from 'nextra-theme-docs'
import { useConfig } from 'nextra-theme-docs'
import { useRouter } from 'next/router'
import { siteConfig } from './site.config'
import { SiteFooter } from './components/site-footer'
import { ThemeToggle } from './components/theme-toggle'
import { VersionNotice, VersionSwitch } from './components/version-switch'
import { Logo } from './components/logo'

function Head() {
  const { title, frontMatter } = useConfig()
  const { asPath } = useRouter()
  const path = asPath.split(/[?#]/)[0]
  const pageTitle = path === '/' ? `${siteConfig.name}: ${siteConfig.tagline}` : `${title} – ${siteConfig.name}`
  const description: string = frontMatter.description || siteConfig.description
  const url = `${siteConfig.url}${path === '/' ? '' : path}`
  return (
    <>
      <title>{pageTitle}</title>
      <meta name="description" content={description} />
      <meta property="og:type" content={frontMatter.date ? 'article' : 'website'} />
      <meta property="og:site_name" content={siteConfig.name} />
      <meta property="og:title" content={pageTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={`${siteConfig.url}/og.png`} />
      <meta name="twitter:card" content="summary" />
      <link rel="canonical" href={url} />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <link rel="alternate" type="application/rss+xml" title="Ferry blog (RSS)" href="/blog/rss.xml" />
      <link rel="alternate" type="application/atom+xml" title="Ferry blog (Atom)" href="/blog/atom.xml" />
    </>
  )
}

const config: DocsThemeConfig = {
  logo: <Logo />,
  project: { link: siteConfig.repository },
  docsRepositoryBase: siteConfig.docsRepositoryBase,
  head: Head,
  banner: {
    key: siteConfig.announcement.id,
    dismissible: true,
    content: <a href={siteConfig.announcement.href}>{siteConfig.announcement.text} →</a>,
  },
  color: { hue: { light: 200, dark: 195 }, saturation: { light: 100, dark: 90 }, lightness: { light: 32, dark: 62 } },
  nextThemes: { defaultTheme: 'light', storageKey: 'theme', enableSystem: false } as DocsThemeConfig['nextThemes'],
  themeSwitch: { component: ThemeToggle },
  navbar: { extraContent: VersionSwitch },
  main: VersionNotice,
  sidebar: { toggleButton: false, defaultMenuCollapseLevel: 1 },
  toc: { title: 'On this page', backToTop: 'Back to top', float: true },
  feedback: { content: 'Question? Open an issue →', labels: 'question' },
  editLink: { content: 'Edit this page' },
  footer: { component: SiteFooter },
  search: { placeholder: 'Search docs and blog…' },
  gitTimestamp: ({ timestamp }) => (
    <>Last updated on <time dateTime={timestamp.toISOString()}>{timestamp.toISOString().slice(0, 10)}</time></>
  ),
}

export default config
