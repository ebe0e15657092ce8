/** sitemap.xml for every public page: weekly, priority 0.5 (site spec §9); /search is excluded. */
export const SITEMAP_EXCLUDE = ['/search', '/404', '/500']

export function buildSitemap(routes: string[], siteUrl: string): string {
  const urls = routes
    .filter((r) => !SITEMAP_EXCLUDE.includes(r))
    .sort()
    .map(
      (r) =>
        `  <url><loc>${siteUrl}${r === '/' ? '' : r}</loc><changefreq>weekly</changefreq><priority>0.5</priority></url>`,
    )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

export function buildRobots(siteUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /search\n\nSitemap: ${siteUrl}/sitemap.xml\n`
}
