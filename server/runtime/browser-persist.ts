/**
 * @module The browser sandbox kept in browser storage: after requests that change something,
 * its database image and blobs are saved (IndexedDB on the site), and the next page load
 * starts from them. `reset()` throws the saved state away and reseeds.
 */
import { createStore, del, get, set } from 'idb-keyval'
import { createSandbox, type Sandbox, type SandboxOptions, type SandboxState } from './browser.ts'

/** Where the state is kept. */
export interface StateStore {
  load(): Promise<SandboxState | undefined>
  save(state: SandboxState): Promise<void>
  clear(): Promise<void>
}

/** The site's store: one IndexedDB record. */
export function indexedDbStateStore(): StateStore {
  const store = createStore('ferry-sandbox', 'state')
  const key = 'state-v1'
  return {
    load: () => get<SandboxState>(key, store),
    save: (state) => set(key, state, store),
    clear: () => del(key, store),
  }
}

export type SandboxEvent =
  { type: 'changed' } | { type: 'saved' } | { type: 'save-failed'; error: unknown } | { type: 'reset' }

export interface PersistentSandboxOptions extends Omit<SandboxOptions, 'state'> {
  store: StateStore
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** A login only issues a (stateless) token: nothing to save. */
const isLogin = (req: Request) => new URL(req.url).pathname === '/v1/auth/login'

export async function openPersistentSandbox(options: PersistentSandboxOptions) {
  const { store, ...sandboxOptions } = options
  const listeners = new Set<(event: SandboxEvent) => void>()
  const emit = (event: SandboxEvent) => listeners.forEach((listener) => listener(event))

  const { sandbox: first, restored } = await openFromStore(store, sandboxOptions)
  let sandbox: Sandbox = first
  let inFlight = 0
  /** Changes not saved yet. */
  let dirty = false
  /** Changes not announced yet (separate from `dirty`: announcing makes listeners read, and reads must not announce again). */
  let unannounced = false
  let saving: Promise<void> = Promise.resolve()

  const save = () => {
    saving = saving.then(async () => {
      // A request that started meanwhile may hold an open transaction; it saves when it ends.
      if (inFlight > 0 || !dirty) return
      dirty = false
      try {
        await store.save(await sandbox.exportState())
        emit({ type: 'saved' })
      } catch (error) {
        emit({ type: 'save-failed', error })
      }
    })
  }

  return {
    /** True when this page load started from a saved state rather than the seed. */
    restored,
    login: first.login,
    /** The sandbox's own signup key (a reset makes a new one), for trying the signup operation. */
    signupKey: (): string => sandbox.signupKey,
    /** Answers one request like a Ferry server (the same app as `npm run server`). */
    async fetch(req: Request): Promise<Response> {
      inFlight++
      try {
        const res = await sandbox.fetch(req)
        if (!READ_METHODS.has(req.method) && res.status < 400 && !isLogin(req)) dirty = unannounced = true
        return res
      } finally {
        inFlight--
        if (inFlight === 0 && dirty) save()
        if (inFlight === 0 && unannounced) {
          unannounced = false
          emit({ type: 'changed' })
        }
      }
    },
    /** Resolves when every change so far is saved (or failed to save). */
    async flushed(): Promise<void> {
      let current
      do {
        current = saving
        await current
      } while (current !== saving)
    },
    /** Back to the seed: the saved state is deleted and a fresh sandbox replaces this one. */
    async reset(): Promise<void> {
      await saving
      const fresh = await createSandbox(sandboxOptions)
      const old = sandbox
      sandbox = fresh
      dirty = unannounced = false
      await store.clear()
      await old.close()
      emit({ type: 'reset' })
    },
    subscribe(listener: (event: SandboxEvent) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type PersistentSandbox = Awaited<ReturnType<typeof openPersistentSandbox>>

/** A saved state that cannot be opened is dropped for a fresh seed, unless a fresh start fails too. */
async function openFromStore(
  store: StateStore,
  options: SandboxOptions,
): Promise<{ sandbox: Sandbox; restored: boolean }> {
  const saved = await store.load().catch(() => undefined)
  if (!saved) return { sandbox: await createSandbox(options), restored: false }
  try {
    return { sandbox: await createSandbox({ ...options, state: saved }), restored: true }
  } catch (restoreError) {
    const sandbox = await createSandbox(options).catch(() => {
      throw restoreError
    })
    await store.clear()
    return { sandbox, restored: false }
  }
}
