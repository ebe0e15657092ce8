/**
 * @module Performance mode across processes without Redis: each Ferry on the same PostgreSQL
 * keeps its answers in its own memory, and tells the others what a write invalidated with
 * `NOTIFY`; each `LISTEN`s and drops those apps' answers (used when FERRY_DATABASE_URL is set
 * and FERRY_REDIS_URL is not). The channel is storage's (`storage/drivers/postgres-notify-node.ts`).
 *
 * A notification reaches the other processes a few milliseconds after the write committed. If
 * the listening connection drops, invalidations may have been missed meanwhile: on reconnecting,
 * the process forgets every cached answer.
 */
import { randomId } from '../core/crypto.ts'
import type { AnswerCache } from './answer-cache.ts'

/** The PostgreSQL channel invalidations go through. */
export const INVALIDATION_CHANNEL = 'ferry_answer_cache'
/** PostgreSQL refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7000
const RETRY_MS = [100, 500, 1000, 2000, 5000]

interface Message {
  from: string
  apps: string[]
}

function isMessage(value: unknown): value is Message {
  if (value === null || typeof value !== 'object') return false
  const from: unknown = Reflect.get(value, 'from')
  const apps: unknown = Reflect.get(value, 'apps')
  return typeof from === 'string' && Array.isArray(apps) && apps.every((a) => typeof a === 'string')
}

/** Payloads of at most MAX_PAYLOAD bytes, each naming some of the apps. */
export function payloads(from: string, apps: string[]): string[] {
  const out: string[] = []
  let batch: string[] = []
  for (const app of apps) {
    const next = JSON.stringify({ from, apps: [...batch, app] })
    if (next.length > MAX_PAYLOAD && batch.length) {
      out.push(JSON.stringify({ from, apps: batch }))
      batch = [app]
    } else {
      batch.push(app)
    }
  }
  if (batch.length) out.push(JSON.stringify({ from, apps: batch }))
  return out
}

/**
 * `onRemote`: told the apps another process invalidated, once this process has dropped them
 * (the CDN purge: only then can a CDN miss not be refilled from this process's stale answers).
 */
/** What this needs of a notification channel (`postgresChannel` in storage). */
export interface NotifyChannel {
  notify(payload: string): Promise<void>
  listen(onPayload: (payload: string) => void, onLost: () => void): Promise<void>
  close(): Promise<void>
}

export async function withPostgresInvalidation(
  cache: AnswerCache,
  channel: NotifyChannel,
  onError: (error: unknown) => void,
  onRemote?: (apps: string[]) => Promise<void>,
): Promise<AnswerCache> {
  const self = randomId('inst', 8)
  let closed = false
  let attempt = 0

  function heard(payload: string): void {
    let parsed: unknown
    try {
      parsed = JSON.parse(payload)
    } catch {
      return
    }
    if (isMessage(parsed) && parsed.from !== self) {
      const { apps } = parsed
      cache
        .invalidate(apps)
        .then(() => onRemote?.(apps))
        .catch(onError)
    }
  }

  async function listen(): Promise<void> {
    await channel.listen(heard, lost)
    attempt = 0
  }

  function lost(): void {
    if (closed) return
    const retry = () => {
      if (closed) return
      // Anything written while nobody listened may be cached here: forget it all.
      cache
        .invalidateAll()
        .then(listen)
        .catch((error: unknown) => {
          onError(error)
          setTimeout(retry, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]).unref()
        })
    }
    setTimeout(retry, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]).unref()
  }

  await listen()
  return {
    ...cache,
    async invalidate(apps) {
      await cache.invalidate(apps)
      if (apps.length === 0) return
      for (const payload of payloads(self, apps)) await channel.notify(payload)
    },
    async close() {
      closed = true
      await channel.close()
      await cache.close()
    },
  }
}
