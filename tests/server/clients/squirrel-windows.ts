/**
 * Squirrel.Windows as its clients read Ferry's RELEASES files. The reading is Squirrel's own:
 * `ReleaseEntry.ParseReleaseFile` from `Squirrel-Mono.exe`, the Mono build of Squirrel that
 * electron-winstaller ships (npm `electron-winstaller`, `vendor/`), run by Debian's Mono through
 * `squirrel-windows/ReadReleases.cs` (compiled with `mcs` on first use). The choice of update,
 * `UpdateManager.CheckForUpdate`, is not called: it needs an installed app (its packages folder
 * and `Update.exe` beside it, Windows paths), so `squirrelUpdate`/`squirrelCheckForUpdate` below
 * redo its few lines from `CheckForUpdateImpl.determineUpdateInfo` (Squirrel.Windows 1.9).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import semver from 'semver'

export interface ReleaseEntry {
  sha1: string
  fileName: string
  size: number
  isDelta: boolean
  version: string
  /** The `# N%` of the line, in percent; `null` without one. */
  stagingPercentage: number | null
}

const squirrel = join(
  dirname(createRequire(import.meta.url).resolve('electron-winstaller/package.json')),
  'vendor',
  'Squirrel-Mono.exe',
)
const source = join(import.meta.dirname, 'squirrel-windows', 'ReadReleases.cs')
let reader: string | undefined

/** The compiled reader, built once per source version into the temp dir. */
function compiledReader(): string {
  if (reader) return reader
  const code = readFileSync(source)
  const dir = join(tmpdir(), `ferry-squirrel-reader-${createHash('sha256').update(code).digest('hex').slice(0, 16)}`)
  const exe = join(dir, 'ReadReleases.exe')
  if (!existsSync(exe)) {
    mkdirSync(dir, { recursive: true })
    const partial = join(dir, `ReadReleases-${process.pid}.exe`)
    execFileSync('mcs', ['-nologo', `-out:${partial}`, source], { stdio: ['ignore', 'ignore', 'inherit'] })
    // Compiled under a name of its own, then renamed: parallel test files never run a half-written reader.
    renameSync(partial, exe)
  }
  reader = exe
  return exe
}

/** The entries of a RELEASES file, read by Squirrel.Windows itself; throws Squirrel's error for a file it refuses. */
export function parseReleases(text: string): ReleaseEntry[] {
  let out: string
  try {
    out = execFileSync('mono', [compiledReader(), squirrel], {
      input: text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? ''
    throw new Error(`Squirrel.Windows refused the RELEASES file: ${stderr.trim() || String(error)}\n${text}`, {
      cause: error,
    })
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const entry = JSON.parse(line) as Omit<ReleaseEntry, 'stagingPercentage'> & { stagingPercentage: number | null }
      // Squirrel keeps the percentage as a fraction (`# 50%` → 0.5).
      return {
        ...entry,
        stagingPercentage: entry.stagingPercentage === null ? null : Math.round(entry.stagingPercentage * 100),
      }
    })
}

/** Squirrel's choice: the newest entry the device is staged into, if newer than the local version. */
export function squirrelUpdate(
  entries: ReleaseEntry[],
  local: string,
  stagedInto: (percentage: number) => boolean = () => true,
): string | null {
  const eligible = entries.filter((e) => e.stagingPercentage === null || stagedInto(e.stagingPercentage))
  const newest = eligible
    .map((e) => e.version)
    .sort(semver.compare)
    .at(-1)
  return newest && semver.gt(newest, local) ? newest : null
}

/**
 * What Squirrel.Windows' `UpdateManager.CheckForUpdate` picks, downgrades included
 * (`CheckForUpdateImpl.determineUpdateInfo`): when the local version is above every remote
 * release ("hwhat, local version is greater than remote version") it applies the newest remote
 * full package, an older version; otherwise the newest remote release above the local one.
 * Returns the version it would install, or `null`.
 */
export function squirrelCheckForUpdate(
  entries: ReleaseEntry[],
  local: string,
  stagedInto: (percentage: number) => boolean = () => true,
): string | null {
  const remote = entries.filter((e) => e.stagingPercentage === null || stagedInto(e.stagingPercentage))
  if (remote.length === 0) return null
  const newest = remote
    .map((e) => e.version)
    .sort(semver.compare)
    .at(-1) as string
  if (semver.gt(local, newest)) return remote.filter((e) => !e.isDelta && e.version === newest).length ? newest : null
  return semver.gt(newest, local) ? newest : null
}
