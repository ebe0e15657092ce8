import Link from 'next/link'
import { siteConfig } from '../site.config'
import { ThemeToggle } from './theme-toggle'

type FooterLink = { label: string; href: string }

const columns: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Docs',
    links: [
      { label: 'Getting started', href: '/docs/getting-started' },
      { label: 'API reference', href: '/docs/api' },
    ],
  },
  {
    title: 'Blog',
    links: [
      { label: 'All posts', href: '/blog' },
      { label: 'Development', href: '/blog/tags/development' },
      { label: 'RSS feed', href: '/blog/rss.xml' },
    ],
  },
  { title: 'Further reading', links: [...siteConfig.articleSites] },
  { title: 'Source', links: [...siteConfig.repositories] },
  {
    title: 'Community',
    links: [
      { label: 'Issue tracker', href: siteConfig.issues },
      { label: 'Request a feature', href: siteConfig.featureRequest },
    ],
  },
]

function FooterAnchor({ label, href }: FooterLink) {
  // A feed is a file, not a page: a plain link, not client-side navigation.
  if (href.endsWith('.xml')) return <a href={href}>{label}</a>
  if (href.startsWith('/')) return <Link href={href}>{label}</Link>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {label}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}

export function SiteFooter() {
  return (
    <footer className="ferry-footer" aria-label="Site footer">
      <div className="ferry-footer-inner">
        <nav className="ferry-footer-columns" aria-label="Footer">
          {columns.map((column) => (
            <div key={column.title}>
              <h2>{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.href}>
                    <FooterAnchor {...link} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className="ferry-footer-bottom">
          <p>Ferry is MIT-licensed. Built with Nextra.</p>
          <ThemeToggle />
        </div>
      </div>
    </footer>
  )
}
