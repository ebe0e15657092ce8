/**
 * @module The content-keyed card cache, under `.next/cache/social-images/` (the folder Next keeps
 * between builds, and CI caches): a card is `<key>.png`, the key a hash of its title, section and
 * the assets' fingerprint (layout, renderer, fonts, mark). A build renders only cards whose key is
 * new, in worker threads (lib/social-images/render-worker.ts), and reuses the rest.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { CardText } from './card.ts'
import { cardAssets } from './assets.ts'

export const DEFAULT_CACHE_DIR = join(import.meta.dirname, '..', '..', '.next', 'cache', 'social-images')

export function cardKey(text: CardText, fingerprint = cardAssets().fingerprint): string {
  return createHash('sha256')
    .update(fingerprint)
    .update(JSON.stringify([text.title, text.section]))
    .digest('hex')
    .slice(0, 32)
}

export function cachedCard(cacheDir: string, text: CardText): string {
  return join(cacheDir, `${cardKey(text)}.png`)
}

export type RenderJob = CardText & { file: string }
export type RenderReport = { rendered: number; reused: number }

/** Renders the cards not in `cacheDir` yet, on up to `threads` worker threads. */
export async function renderMissing(
  cacheDir: string,
  cards: Iterable<CardText>,
  threads = availableParallelism(),
): Promise<RenderReport> {
  const jobs = new Map<string, RenderJob>()
  let reused = 0
  for (const text of cards) {
    const file = cachedCard(cacheDir, text)
    if (jobs.has(file)) continue
    if (existsSync(file)) reused++
    else jobs.set(file, { ...text, file })
  }
  if (jobs.size === 0) return { rendered: 0, reused }
  mkdirSync(cacheDir, { recursive: true })
  const queue = [...jobs.values()]
  const workers = Array.from({ length: Math.min(threads, queue.length) }, () => runWorker(queue))
  await Promise.all(workers)
  return { rendered: jobs.size, reused }
}

/** One worker thread taking jobs off the shared queue until it is empty. */
function runWorker(queue: RenderJob[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./render-worker.ts', import.meta.url))
    const next = () => {
      const job = queue.shift()
      if (job) worker.postMessage(job)
      else void worker.terminate().then(() => resolve())
    }
    worker.on('message', (message: { error?: string }) => {
      if (message.error) {
        reject(new Error(`social image: ${message.error}`))
        void worker.terminate()
      } else next()
    })
    worker.on('error', reject)
    next()
  })
}
