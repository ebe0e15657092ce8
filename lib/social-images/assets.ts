/**
 * @module What a card is drawn with, read from disk once per thread: the Inter font from the
 * `@fontsource/inter` package (no network at build), the product mark (public/favicon.svg), the
 * site's host. `fingerprint` hashes all of it with the layout's source and the renderers'
 * versions: the part of the cache key (lib/social-images/cache.ts) that is the same for every page.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { siteConfig } from '../../site.config.ts'
import { CARD_FONT } from './card.ts'

const require = createRequire(import.meta.url)
const root = join(import.meta.dirname, '..', '..')

export type CardFont = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }
export type CardAssets = { fonts: CardFont[]; mark: string; host: string; fingerprint: string }

function version(pkg: string): string {
  const meta: { version?: unknown } = JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8'))
  return String(meta.version)
}

let loaded: CardAssets | undefined

export function cardAssets(): CardAssets {
  if (loaded) return loaded
  const fonts: CardFont[] = ([400, 700] as const).map((weight) => ({
    name: CARD_FONT,
    data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
    weight,
    style: 'normal',
  }))
  const markSvg = readFileSync(join(root, 'public', 'favicon.svg'))
  const host = new URL(siteConfig.url).host
  const hash = createHash('sha256')
  for (const part of [
    readFileSync(join(import.meta.dirname, 'card.ts')),
    readFileSync(join(import.meta.dirname, 'render.ts')),
    ...fonts.map((f) => f.data),
    markSvg,
    host,
    version('satori'),
    version('@resvg/resvg-js'),
  ])
    hash.update(part).update('\0')
  loaded = {
    fonts,
    mark: `data:image/svg+xml;base64,${markSvg.toString('base64')}`,
    host,
    fingerprint: hash.digest('hex'),
  }
  return loaded
}
