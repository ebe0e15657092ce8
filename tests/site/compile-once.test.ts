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

/** Nextra's options for a page, as its next.config plugin passes them (nextra/dist/server/index.js). */
const NEXTRA_OPTIONS = {
  theme: 'nextra-theme-docs',
  locales: [''],
  isPageImport: true,
  search: { codeblocks: false },
  defaultShowCopyCode: true,
  staticImage: true,
  codeHighlight: true,
}

type Side = 'server' | 'client'

/** One compile of `file` by Nextra's loader, with the options next.config.mjs gives it on `side`. */
function compile(side: Side, dir: string, file: string): Promise<{ code: string; nextraRan: boolean }> {
  const buildInfo: { nextraSearch?: unknown } = {}
  const context = {
    _module: { buildInfo },
    getOptions(this: { loaders: LoaderEntry[]; loaderIndex: number }) {
      return this.loaders[this.loaderIndex]!.options
    },
  }
  const loaders = [{ loader: nextraLoader, options: { ...NEXTRA_OPTIONS, compileOnce: { side, dir } } }]
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
let dir: string

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'compile-once-'))
  page = join(work, 'pages', 'guide.mdx')
  dir = join(work, 'build-id')
  await mkdir(join(work, 'pages'))
})
after(() => rm(work, { recursive: true, force: true }))

test("the browser's compile gets the server's module and does not run Nextra again", async () => {
  await writeFile(page, PAGE('rollouts'))
  const server = await compile('server', dir, page)
  assert.ok(server.nextraRan, 'the server compiles with Nextra (its search index comes from there)')
  assert.match(server.code, /rollouts/)
  const client = await compile('client', dir, page)
  assert.equal(client.code, server.code)
  assert.equal(client.nextraRan, false, "Nextra's loader ran a second time")
})

test('a page changed after the server compiled it goes through Nextra again, never stale', async () => {
  await writeFile(page, PAGE('channels'))
  await compile('server', dir, page)
  await writeFile(page, PAGE('webhooks'))
  const client = await compile('client', dir, page)
  assert.ok(client.nextraRan)
  assert.match(client.code, /webhooks/)
  assert.doesNotMatch(client.code, /channels/)
})

test('a page the server never compiled is compiled in the browser as before', async () => {
  await writeFile(page, PAGE('telemetry'))
  const client = await compile('client', join(work, 'another-build'), page)
  assert.ok(client.nextraRan)
  assert.match(client.code, /telemetry/)
})
