import nextra from 'nextra'

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
  eslint: { ignoreDuringBuilds: true },
})
