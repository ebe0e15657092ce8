/**
 * @module The server's data directory, checked before anything is written to it: it must be a
 * directory this process can write, and only one server may use it (a lock file holding the
 * holder's pid; a lock left by a process that is gone is taken over).
 */
import { constants } from 'node:fs'
import { access, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/** A start-up problem the operator fixes: main prints the message alone, on one line. */
export class StartupError extends Error {}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/** Creates `dir` and its missing parents one level at a time (a recursive mkdir under /proc never returns). */
async function createDirectory(dir: string): Promise<void> {
  const missing: string[] = []
  let at = dir
  for (;;) {
    const found = await stat(at).catch((error: unknown) => {
      if (code(error) === 'ENOENT') return undefined
      throw new StartupError(`FERRY_DATA_DIR ${dir}: cannot look at ${at} (${code(error)})`)
    })
    if (found) {
      if (!found.isDirectory()) throw new StartupError(`FERRY_DATA_DIR ${dir}: ${at} is a file, not a directory`)
      break
    }
    missing.unshift(at)
    const parent = dirname(at)
    if (parent === at) break
    at = parent
  }
  for (const level of missing) {
    await mkdir(level).catch((error: unknown) => {
      if (code(error) !== 'EEXIST')
        throw new StartupError(`FERRY_DATA_DIR ${dir}: cannot create ${level} (${code(error)})`)
    })
  }
}

/** The absolute data directory, created when missing; a clear error when it cannot be used. */
export async function usableDataDir(configured: string): Promise<string> {
  const dir = resolve(configured)
  await createDirectory(dir)
  await access(dir, constants.W_OK | constants.X_OK).catch((error: unknown) => {
    throw new StartupError(`FERRY_DATA_DIR ${dir} is not writable by this process (${code(error)})`)
  })
  return dir
}

export const LOCK_FILE = 'server.pid'

export interface DataDirLock {
  release(): Promise<void>
}

/** Directories locked by servers in this process (a test may start several). */
const heldHere = new Set<string>()

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return code(error) === 'EPERM'
  }
}

/**
 * Takes `dir/server.pid` for this process. Another live process's pid there stops the start; a
 * pid that no longer runs, or this process's own pid left by an earlier life (a container's server
 * often gets the same pid again), is taken over.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const file = join(dir, LOCK_FILE)
  const mine = `${process.pid}\n`
  const inUse = (pid: number) =>
    new StartupError(
      `FERRY_DATA_DIR ${dir} is in use by another Ferry server (pid ${pid}, lock file ${file}): stop it, or give this server its own data directory`,
    )
  if (heldHere.has(dir)) throw inUse(process.pid)
  try {
    await writeFile(file, mine, { flag: 'wx', mode: 0o644 })
  } catch (error) {
    if (code(error) !== 'EEXIST')
      throw new StartupError(`FERRY_DATA_DIR ${dir}: cannot write the lock file ${file} (${code(error)})`)
    const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10)
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) throw inUse(holder)
    // Stale: replace it in one step, then check no other server took it at the same moment.
    const fresh = `${file}.${process.pid}`
    await writeFile(fresh, mine, { mode: 0o644 })
    await rename(fresh, file)
    if ((await readFile(file, 'utf8')) !== mine) throw inUse(Number.parseInt(await readFile(file, 'utf8'), 10))
  }
  heldHere.add(dir)
  let released = false
  return {
    async release() {
      if (released) return
      released = true
      heldHere.delete(dir)
      if ((await readFile(file, 'utf8').catch(() => '')) === mine) await unlink(file).catch(() => undefined)
    },
  }
}
