import { join } from 'node:path'
import nextra from 'nextra'

/** Small accessible stand-ins for the Headless UI components Nextra's theme uses (components/headless). */
const headless = join(import.meta.dirname, 'components', 'headless', 'index.ts')
/** Nextra's ImageZoom without next/image, its zoom loaded only on pages that show an image. */
const imageZoom = join(import.meta.dirname, 'components', 'lazy-image-zoom.tsx')
/** Pages whose content needs no code in the browser ship none (lib/static-content). */
const staticContentLoader = join(import.meta.dirname, 'lib', 'static-content', 'loader.ts')

/** Runs the static-content loader on each page's module right after Nextra's loader. */
function addStaticContentLoader(config, side) {
  for (const rule of config.module.rules) {
    for (const branch of rule?.oneOf ?? []) {
      const use = Array.isArray(branch?.use) ? branch.use : []
      const at = use.findIndex((entry) => entry?.loader === 'nextra/loader' && entry.options?.isPageImport)
      if (at !== -1) use.splice(at, 0, { loader: staticContentLoader, options: { side, root: import.meta.dirname } })
    }
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
  webpack(config, { webpack, isServer, dev }) {
    // Production only: in `npm run dev` pages hydrate as React renders them, for fast refresh.
    if (!dev) addStaticContentLoader(config, isServer ? 'server' : 'client')
    // Only Nextra and its theme import Headless UI. A plain alias: Next rewrites Headless UI imports
    // for its barrel optimisation, and a rule scoped by issuer no longer sees them.
    config.resolve.alias['@headlessui/react'] = headless
    config.plugins.push(
      new webpack.NormalModuleReplacementPlugin(/[\\/]image-zoom\.js$/, (resource) => {
        if (/[\\/]node_modules[\\/]nextra[\\/]/.test(resource.context)) resource.request = imageZoom
      }),
    )
    return config
  },
})
