import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import nextra from 'nextra'
import { CODE_THEMES, codeColourClasses } from './lib/code-colour-classes.ts'

/** Small accessible stand-ins for the Headless UI components Nextra's theme uses (components/headless). */
const headless = join(import.meta.dirname, 'components', 'headless', 'index.ts')
/** Centring in one scrolling box, all Nextra's theme asks of `scroll-into-view-if-needed` (components/scroll-into-view.ts). */
const scrollIntoView = join(import.meta.dirname, 'components', 'scroll-into-view.ts')
/** `nextra/icons` for the docs theme, without the Discord logo the site never shows (components/nextra-icons.ts). */
const themeIcons = join(import.meta.dirname, 'components', 'nextra-icons.ts')
/** Nextra's ImageZoom without next/image, its zoom loaded only on pages that show an image. */
const imageZoom = join(import.meta.dirname, 'components', 'lazy-image-zoom.tsx')
/** The site's search ranking, which the theme's navbar search loads on first use (patches/nextra-theme-docs). */
const siteSearch = join(import.meta.dirname, 'components', 'search', 'search-index.ts')
/** Pages whose content needs no code in the browser ship none (lib/static-content). */
const staticContentLoader = join(import.meta.dirname, 'lib', 'static-content', 'loader.ts')
/** In development, a page's broken front matter, links or code blocks fail its compile with file:line (lib/dev-checks). */
const devChecksLoader = join(import.meta.dirname, 'lib', 'dev-checks', 'loader.ts')

/**
 * Adds a loader beside Nextra's on each page's module. Webpack runs a rule's loaders last to
 * first: 'after' Nextra sees the compiled page, 'before' Nextra sees the MDX source.
 */
function addPageLoader(config, order, loader) {
  for (const rule of config.module.rules) {
    for (const branch of rule?.oneOf ?? []) {
      const use = Array.isArray(branch?.use) ? branch.use : []
      const at = use.findIndex((entry) => entry?.loader === 'nextra/loader' && entry.options?.isPageImport)
      if (at !== -1) use.splice(order === 'after' ? at : at + 1, 0, loader)
    }
  }
}

/**
 * Has Nextra's loader compile each MDX file once per build (patches/nextra: `compileOnce`): the
 * server's compile stores its output, the browser's reuses it. An option, not a loader of our own,
 * so the loader chain, and with it every module id and chunk hash, stays what it was.
 */
function compileMdxOnce(config, compileOnce) {
  for (const rule of config.module.rules) {
    for (const branch of rule?.oneOf ?? []) {
      for (const entry of Array.isArray(branch?.use) ? branch.use : []) {
        if (entry?.loader === 'nextra/loader') entry.options = { ...entry.options, compileOnce }
      }
    }
  }
}

/**
 * Nextra's rule for pages/_app also matches next/dist/pages/_app.js, the App of the compile
 * `next dev` runs to render a build error, and Nextra's loader throws there: without this, any
 * compile error is a bare "Internal Server Error" (ENOENT .next/fallback-build-manifest.json), not the overlay.
 */
function keepNextraOffNextsOwnApp(config) {
  for (const rule of config.module.rules) {
    if (
      rule?.test instanceof RegExp &&
      rule.test.test('pages/_app.js') &&
      [rule.use].flat().some((u) => u?.loader === 'nextra/loader')
    )
      rule.exclude = /[\\/]node_modules[\\/]/
  }
}

const withNextra = nextra({
  theme: 'nextra-theme-docs',
  themeConfig: './theme.config.tsx',
  // The theme's stylesheet is imported from styles/ with the 996 px breakpoint (scripts/theme-css.ts).
  autoImportThemeStyle: false,
  defaultShowCopyCode: true,
  latex: false,
  search: { codeblocks: false },
  // Token colours as classes, not one inline style per token (lib/code-colour-classes.ts).
  mdxOptions: { rehypePrettyCodeOptions: { theme: CODE_THEMES, transformers: [codeColourClasses()] } },
})

export default withNextra({
  output: 'export',
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // `FERRY_SOURCE_MAPS=1 npm run build` then `npm run bench:site -- --breakdown`: bytes per package.
  productionBrowserSourceMaps: process.env.FERRY_SOURCE_MAPS === '1',
  eslint: { ignoreDuringBuilds: true },
  // `npm test` runs `tsc --noEmit` over the same tsconfig before it builds: checking again here cost
  // the build 13 s of its 90 s budget (issue 13).
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // A custom webpack config turns Next's build worker off; on: each compile runs in a fresh process,
    // whose memory is freed when it ends. Next 15.5 compiles the browser's bundles after the server's
    // (the page map and compileMdxOnce need that order); parallelServerCompiles pairs only the server
    // and edge compiles, and the edge one has nothing to compile.
    webpackBuildWorker: true,
    parallelServerCompiles: true,
    // Static generation in as many processes as there are cores: Next keeps one core for its own
    // process by default, which has nothing to do then (patches/next: no output tracing in an export).
    cpus: availableParallelism(),
  },
  webpack(config, { webpack, isServer, dev, buildId, nextRuntime }) {
    // Static content in production only: in `npm run dev` pages hydrate as React renders them, for fast refresh.
    const root = import.meta.dirname
    if (!dev) {
      addPageLoader(config, 'after', {
        loader: staticContentLoader,
        options: { side: isServer ? 'server' : 'client', root },
      })
      // The edge compile has no pages. Next empties .next before it compiles; the build id keeps
      // an entry from outliving its build even so.
      if (nextRuntime !== 'edge')
        compileMdxOnce(config, {
          side: isServer ? 'server' : 'client',
          dir: join(root, '.next', 'compile-once', buildId),
        })
    } else {
      addPageLoader(config, 'before', { loader: devChecksLoader, options: { root } })
      keepNextraOffNextsOwnApp(config)
    }
    // Only Nextra and its theme import Headless UI. A plain alias: Next rewrites Headless UI imports
    // for its barrel optimisation, and a rule scoped by issuer no longer sees them.
    config.resolve.alias['@headlessui/react'] = headless
    config.resolve.alias['scroll-into-view-if-needed'] = scrollIntoView
    config.resolve.alias['ferry-site-search'] = siteSearch
    // Nextra's router hook reads this for i18n, which the site does not use; left undefined, the
    // reference made webpack bundle a `process` polyfill into every page.
    if (!isServer) config.plugins.push(new webpack.DefinePlugin({ 'process.env.NEXTRA_DEFAULT_LOCALE': 'undefined' }))
    config.plugins.push(
      new webpack.NormalModuleReplacementPlugin(/[\\/]image-zoom\.js$/, (resource) => {
        if (/[\\/]node_modules[\\/]nextra[\\/]/.test(resource.context)) resource.request = imageZoom
      }),
      new webpack.NormalModuleReplacementPlugin(/^nextra\/icons$/, (resource) => {
        if (/[\\/]node_modules[\\/]nextra-theme-docs[\\/]/.test(resource.context)) resource.request = themeIcons
      }),
    )
    return config
  },
})
