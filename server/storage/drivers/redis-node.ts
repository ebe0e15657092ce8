/**
 * @module Redis clients (Node only), for the answer cache and the login counters: each on a
 * connection of its own, failing commands at once while Redis is unreachable (no offline queue),
 * so a request answers without the cache or with a 503 instead of waiting.
 */
import { createClient } from 'redis'

const newClient = (url: string) => createClient({ url, disableOfflineQueue: true })
export type RedisClient = ReturnType<typeof newClient>

/** A connected client; `onError` hears every connection error (the client reconnects by itself). */
export async function openRedis(url: string, onError: (error: unknown) => void): Promise<RedisClient> {
  const client = newClient(url)
  client.on('error', onError)
  await client.connect()
  return client
}
