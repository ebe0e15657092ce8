/** @module A worker thread of the card cache (lib/social-images/cache.ts): renders each job it is sent to its file. */
import { renameSync, writeFileSync } from 'node:fs'
import { parentPort, threadId } from 'node:worker_threads'
import { cardAssets } from './assets.ts'
import type { RenderJob } from './cache.ts'
import { renderCard } from './render.ts'

const port = parentPort
if (!port) throw new Error('render-worker.ts runs as a worker thread (lib/social-images/cache.ts)')
port.on('message', (job: RenderJob) => {
  renderCard(job, cardAssets()).then(
    (png) => {
      // Written beside, then renamed: a build reading the cache never sees half a file.
      const partial = `${job.file}.${process.pid}-${threadId}.partial`
      writeFileSync(partial, png)
      renameSync(partial, job.file)
      port.postMessage({ file: job.file })
    },
    (error: unknown) => port.postMessage({ error: `${job.title}: ${String(error)}` }),
  )
})
