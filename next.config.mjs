import { join } from 'node:path'
import nextra from 'nextra'

/** Small accessible stand-ins for the Headless UI components Nextra's theme uses (components/headless). */
const headless = join(import.meta.dirname, 'components', 'headless', 'index.ts')
/** Nextra's ImageZoom without next/image, its zoom loaded only on pages that show an image. */
const imageZoom = join(import.meta.dirname, 'components', 'lazy-image-zoom.tsx')

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
  webpack(config, { webpack }) {
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
