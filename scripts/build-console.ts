/**
 * `npm run build:console`: bundles Ferry Console (components/console/) into console-dist/, the
 * static files the Node server serves at /console, with the site's icon. One script and one
 * stylesheet, no inline code, so the page runs under `script-src 'self'; style-src 'self'`.
 * `npm ci` runs it too (package.json `prepare`), so a checkout serves the console with no extra step.
 * A production install (`npm ci --omit=dev --ignore-scripts`) runs it by hand, as the Dockerfile and
 * the deploy guides do; it then fetches the React it lacks (scripts/console-build-deps.ts).
 */
import { build } from 'esbuild'
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readFile } from 'node:fs/promises'
import { consoleBuildPaths } from './console-build-deps.ts'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'console-dist')
// Built beside it, then swapped in by renames: a server serving console-dist/ meanwhile (a second
// e2e project) never finds it half written.
const out = `${dist}.building-${process.pid}`

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ferry Console</title>
<link rel="icon" href="/console/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/console.css">
<script type="module" src="/console/console.js"></script>
</head>
<body>
<div id="console"><noscript>Ferry Console needs JavaScript.</noscript></div>
</body>
</html>
`

await rm(out, { recursive: true, force: true })
await mkdir(out, { recursive: true })
await build({
  entryPoints: { console: join(import.meta.dirname, '..', 'components', 'console', 'main.tsx') },
  outdir: out,
  bundle: true,
  format: 'esm',
  minify: true,
  jsx: 'automatic',
  target: 'es2022',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  nodePaths: consoleBuildPaths(root),
})
await writeFile(join(out, 'index.html'), html)
await copyFile(join(import.meta.dirname, '..', 'public', 'favicon.svg'), join(out, 'favicon.svg'))
const old = `${dist}.old-${process.pid}`
await rename(dist, old).catch(() => undefined)
await rename(out, dist)
await rm(old, { recursive: true, force: true })
const js = await readFile(join(dist, 'console.js'))
console.log(`console-dist/: console.js ${js.length} bytes, ${gzipSync(js).length} bytes gzipped`)
