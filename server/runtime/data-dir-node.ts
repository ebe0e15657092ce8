/**
 * @module The server's data directory, checked before anything is written to it: it must be a
 * directory this process can write, and only one server may use it (a lock file holding the
 * holder's pid; a lock left by a process that is gone is taken over). Ferry creates it mode 700;
 * a start that fails removes what it created there.
 */
import { constants } from 'node:fs'
import { access, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/** A start-up problem the operator fixes: main prints the message alone, on one line. */
export class StartupError extends Error {}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/**
 * Creates `dir` and its missing parents one level at a time (a recursive mkdir under /proc never
 * returns), mode 700: the database and the secrets are for this server's user only. Returns the
 * levels it created, outermost first.
 */
async function createDirectory(dir: string): Promise<string[]> {
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
  const created: string[] = []
  for (const level of missing) {
    try {
      await mkdir(level, { mode: 0o700 })
      created.push(level)
    } catch (error) {
      if (code(error) === 'EEXIST') continue
      await removeEmpty(created)
      throw new StartupError(`FERRY_DATA_DIR ${dir}: cannot create ${level} (${code(error)})`)
    }
  }
  return created
}

/** Removes the directories `created` lists, innermost first, those that are empty. */
export async function removeEmpty(created: readonly string[]): Promise<void> {
  for (const level of [...created].reverse()) await rmdir(level).catch(() => undefined)
}

export interface UsableDataDir {
  /** The absolute path. */
  dir: string
  /** The directories this start created, outermost first. */
  created: string[]
}

/** The absolute data directory, created when missing; a clear error when it cannot be used. */
export async function usableDataDir(configured: string): Promise<UsableDataDir> {
  const dir = resolve(configured)
  const created = await createDirectory(dir)
  await access(dir, constants.W_OK | constants.X_OK).catch(async (error: unknown) => {
    await removeEmpty(created)
    throw new StartupError(`FERRY_DATA_DIR ${dir} is not writable by this process (${code(error)})`)
  })
  return { dir, created }
}

/**
 * What undoes a start that fails: it removes the entries the start added to the data directory
 * (only when `exclusive`, the lock held: with PostgreSQL other instances may be writing there),
 * then the directories it created, if empty. A database that was there keeps its -wal and -shm
 * files. Call it after the lock is released.
 */
export async function undoStart({ dir, created }: UsableDataDir, exclusive: boolean): Promise<() => Promise<void>> {
  const before = exclusive ? new Set(await readdir(dir)) : undefined
  const keep = (name: string) =>
    name === LOCK_FILE || before?.has(name) || (before?.has('ferry.db') && name.startsWith('ferry.db'))
  return async () => {
    if (before)
      for (const name of await readdir(dir).catch(() => []))
        if (!keep(name)) await rm(join(dir, name), { recursive: true, force: true })
    await removeEmpty(created)
  }
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
