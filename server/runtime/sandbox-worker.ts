/**
 * @module The /demo sandbox in a Web Worker: the persistent sandbox (Ferry's app on sql.js,
 * seeded, saved to IndexedDB) runs here, so seeding and answering requests stay off the page's
 * main thread. The page talks to it with the messages below (`components/demo/sandbox-loader.ts`).
 */
import {
  indexedDbStateStore,
  openPersistentSandbox,
  type PersistentSandbox,
  type SandboxEvent,
} from './browser-persist.ts'

/** A request or response as plain data; bodies are transferred, not copied. */
export interface WireHeaders {
  headers: Array<[string, string]>
}
export type ToWorker =
  | { kind: 'open'; wasmBinary: ArrayBuffer; publicUrl: string }
  | ({ kind: 'fetch'; id: number; method: string; url: string; body: ArrayBuffer | null } & WireHeaders)
  | { kind: 'reset'; id: number }
  | { kind: 'signup-key'; id: number }
export type FromWorker =
  | { kind: 'opened'; restored: boolean }
  | { kind: 'open-failed'; message: string }
  | ({ kind: 'response'; id: number; status: number; statusText: string; body: ArrayBuffer } & WireHeaders)
  | { kind: 'done'; id: number }
  | { kind: 'signup-key'; id: number; value: string }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'event'; event: Exclude<SandboxEvent, { type: 'save-failed' }> | { type: 'save-failed'; error: string } }

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
  postMessage(message: FromWorker, transfer?: Transferable[]): void
}
const scope = globalThis as unknown as WorkerScope
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

let opened: Promise<PersistentSandbox> | undefined

async function answer(sandbox: PersistentSandbox, m: Extract<ToWorker, { kind: 'fetch' }>) {
  const res = await sandbox.fetch(new Request(m.url, { method: m.method, headers: m.headers, body: m.body }))
  const body = await res.arrayBuffer()
  scope.postMessage(
    { kind: 'response', id: m.id, status: res.status, statusText: res.statusText, headers: [...res.headers], body },
    [body],
  )
}

scope.onmessage = ({ data: m }) => {
  if (m.kind === 'open') {
    opened = openPersistentSandbox({ store: indexedDbStateStore(), wasmBinary: m.wasmBinary, publicUrl: m.publicUrl })
    opened.then(
      (sandbox) => {
        sandbox.subscribe((event) =>
          scope.postMessage({
            kind: 'event',
            event: event.type === 'save-failed' ? { type: 'save-failed', error: messageOf(event.error) } : event,
          }),
        )
        scope.postMessage({ kind: 'opened', restored: sandbox.restored })
      },
      (error: unknown) => scope.postMessage({ kind: 'open-failed', message: messageOf(error) }),
    )
    return
  }
  const id = m.id
  const work = opened?.then((sandbox) => {
    if (m.kind === 'fetch') return answer(sandbox, m)
    if (m.kind === 'signup-key') return scope.postMessage({ kind: 'signup-key', id, value: sandbox.signupKey() })
    return sandbox.reset().then(() => scope.postMessage({ kind: 'done', id }))
  })
  ;(work ?? Promise.reject(new Error('the sandbox is not open'))).catch((error: unknown) =>
    scope.postMessage({ kind: 'failed', id, message: messageOf(error) }),
  )
}
