/**
 * @module A PostgreSQL notification channel (Node only): `NOTIFY` through a small pool, `LISTEN`
 * on a connection of its own. When that connection drops, `onLost` is told once; listening again
 * is the caller's choice (it may have missed notifications meanwhile).
 */
import pg from 'pg'

export interface PostgresChannel {
  notify(payload: string): Promise<void>
  /** Listens on a new connection; throws when it cannot connect. */
  listen(onPayload: (payload: string) => void, onLost: () => void): Promise<void>
  close(): Promise<void>
}

export function postgresChannel(url: string, channel: string, onError: (error: unknown) => void): PostgresChannel {
  const sender = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true })
  sender.on('error', onError)
  let listener: pg.Client | undefined
  let closed = false
  return {
    async notify(payload) {
      await sender.query('SELECT pg_notify($1, $2)', [channel, payload])
    },
    async listen(onPayload, onLost) {
      const client = new pg.Client({ connectionString: url })
      const lost = () => {
        if (closed || listener !== client) return
        listener = undefined
        client.end().catch(() => undefined)
        onLost()
      }
      client.on('notification', (msg) => onPayload(msg.payload ?? ''))
      client.on('error', (error) => {
        onError(error)
        lost()
      })
      client.on('end', lost)
      await client.connect()
      await client.query(`LISTEN ${channel}`)
      listener = client
    },
    async close() {
      closed = true
      await listener?.end().catch(() => undefined)
      await sender.end()
    },
  }
}
