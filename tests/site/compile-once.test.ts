/**
 * Each MDX page goes through Nextra's pipeline once per build (patches/nextra, `compileOnce`, set
 * by next.config.mjs): the browser's compile starts from exactly the module the server's compile
 * got from Nextra, without running Nextra's pipeline again, and never from a stale one when the
 * page changed in between. Nextra's loader runs in webpack's own loader runner, as in `next build`.
 */
import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

const require = createRequire(import.meta.url)
const nextraLoader = require.resolve('nextra/loader')

interface LoaderEntry {
  loader: string
  options: object
}
interface RunOptions {
  resource: string
  loaders: LoaderEntry[]
  context: object
}
interface RunResult {
  result?: Array<string | Buffer>
}
/** webpack's loader runner, as Next bundles it (the package has no types of its own). */
const { runLoaders } = require('next/dist/compiled/loader-runner') as {
  runLoaders(options: RunOptions, callback: (error: Error | null, result: RunResult) => void): void
}

type Side = 'server' | 'client'

interface WebpackConfig {
  module: { rules: Array<{ oneOf?: Array<{ use?: unknown }> }> }
  plugins: unknown[]
  resolve: { alias: Record<string, string> }
  watchOptions: object
}
interface NextConfig {
  webpack(config: WebpackConfig, context: object): WebpackConfig
}

const BUILD_ID = `compile-once-test-${process.pid}`
const ROOT = join(import.meta.dirname, '..', '..')

/**
 * The options Nextra's loader gets for a page on `side` in `next build`: next.config.mjs's own
 * webpack hook (Nextra's plugin, then the site's) run over an empty config, as Next runs it.
 */
async function pageLoaderOptions(side: Side): Promise<object> {
  const configFile = join(ROOT, 'next.config.mjs')
  const nextConfig = (await import(configFile)) as { default: NextConfig }
  const config: WebpackConfig = { module: { rules: [] }, plugins: [], resolve: { alias: {} }, watchOptions: {} }
  nextConfig.default.webpack(config, {
    webpack: require('next/dist/compiled/webpack/webpack-lib.js') as unknown,
    isServer: side === 'server',
    dev: false,
    buildId: BUILD_ID,
    nextRuntime: side === 'server' ? 'nodejs' : undefined,
    defaultLoaders: { babel: { loader: 'next-swc-loader' } },
  })
  for (const rule of config.module.rules)
    for (const branch of rule.oneOf ?? [])
      for (const entry of [branch.use].flat() as LoaderEntry[])
        if (entry.loader === 'nextra/loader' && Reflect.get(entry.options, 'isPageImport') === true)
          return entry.options
  throw new Error(`next.config.mjs gives no page loader options on the ${side} side`)
}

/** One compile of `file` by Nextra's loader, with the options next.config.mjs gives it on `side`. */
async function compile(side: Side, file: string): Promise<{ code: string; nextraRan: boolean }> {
  const buildInfo: { nextraSearch?: unknown } = {}
  const context = {
    _module: { buildInfo },
    getOptions(this: { loaders: LoaderEntry[]; loaderIndex: number }) {
      return this.loaders[this.loaderIndex]!.options
    },
  }
  const loaders = [{ loader: nextraLoader, options: await pageLoaderOptions(side) }]
  return new Promise((resolve, reject) =>
    runLoaders({ resource: file, loaders, context }, (error, result) => {
      if (error) return reject(error)
      // Nextra's pipeline records each page's search entry; a page it never compiled has none.
      resolve({ code: String(result.result?.[0]), nextraRan: buildInfo.nextraSearch !== undefined })
    }),
  )
}

const PAGE = (word: string) => `---
title: A guide
---

# A guide

A paragraph about ${word}.

\`\`\`ts filename="app.ts"
const ${word} = await fetch('/v1/apps')
\`\`\`
`

let work: string
let page: string

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'compile-once-'))
  page = join(work, 'pages', 'guide.mdx')
  await mkdir(join(work, 'pages'))
})
after(async () => {
  await rm(work, { recursive: true, force: true })
  await rm(join(ROOT, '.next', 'compile-once', BUILD_ID), { recursive: true, force: true })
})

test("the browser's compile gets the server's module and does not run Nextra again", async () => {
  await writeFile(page, PAGE('rollouts'))
  const server = await compile('server', page)
  assert.ok(server.nextraRan, 'the server compiles with Nextra (its search index comes from there)')
  assert.match(server.code, /rollouts/)
  const client = await compile('client', page)
  assert.equal(client.code, server.code)
  assert.equal(client.nextraRan, false, "Nextra's loader ran a second time")
})

test('a page changed after the server compiled it goes through Nextra again, never stale', async () => {
  await writeFile(page, PAGE('channels'))
  await compile('server', page)
  await writeFile(page, PAGE('webhooks'))
  const client = await compile('client', page)
  assert.ok(client.nextraRan)
  assert.match(client.code, /webhooks/)
  assert.doesNotMatch(client.code, /channels/)
})

test('a page the server never compiled is compiled in the browser as before', async () => {
  const other = join(work, 'pages', 'other.mdx')
  await writeFile(other, PAGE('telemetry'))
  const client = await compile('client', other)
  assert.ok(client.nextraRan)
  assert.match(client.code, /telemetry/)
})
