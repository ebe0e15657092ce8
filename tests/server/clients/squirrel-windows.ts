/** Reads a RELEASES file the way Squirrel.Windows' ReleaseEntry does (same regular expressions). */
import semver from 'semver'

const entryRegex = /^([0-9a-fA-F]{40})\s+(\S+)\s+(\d+)[\r]*$/
const commentRegex = /\s*#.*$/
const stagingRegex = /#\s+(\d{1,3})%$/
const suffixRegex = /(-full|-delta)?\.nupkg$/
const versionRegex = /\d+(\.\d+){0,3}(-[A-Za-z][0-9A-Za-z-.]*)?$/

export interface ReleaseEntry { sha1: string; fileName: string; size: number; isDelta: boolean; version: string; stagingPercentage: number | null }

export function parseReleases(text: string): ReleaseEntry[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const staging = stagingRegex.exec(line)
    const entry = line.replace(commentRegex, '')
    const m = entryRegex.exec(entry)
    if (!m) throw new Error(`invalid release entry: ${JSON.stringify(line)}`)
    const fileName = m[2] as string
    const version = versionRegex.exec(fileName.replace(suffixRegex, ''))?.[0]
    if (!version) throw new Error(`no version in ${fileName}`)
    return {
      sha1: m[1] as string, fileName, size: Number(m[3]), isDelta: fileName.endsWith('-delta.nupkg'), version,
      stagingPercentage: staging ? Number(staging[1]) : null,
    }
  })
}

/** Squirrel's choice: the newest entry the device is staged into, if newer than the local version. */
export function squirrelUpdate(entries: ReleaseEntry[], local: string, stagedInto: (percentage: number) => boolean = () => true): string | null {
  const eligible = entries.filter((e) => e.stagingPercentage === null || stagedInto(e.stagingPercentage))
  const newest = eligible.map((e) => e.version).sort(semver.compare).at(-1)
  return newest && semver.gt(newest, local) ? newest : null
}

/**
 * What Squirrel.Windows' `UpdateManager.CheckForUpdate` picks, downgrades included
 * (`CheckForUpdateImpl.determineUpdateInfo`): when the local version is above every remote
 * release ("hwhat, local version is greater than remote version") it applies the newest remote
 * full package, an older version; otherwise the newest remote release above the local one.
 * Returns the version it would install, or `null`.
 */
export function squirrelCheckForUpdate(entries: ReleaseEntry[], local: string, stagedInto: (percentage: number) => boolean = () => true): string | null {
  const remote = entries.filter((e) => e.stagingPercentage === null || stagedInto(e.stagingPercentage))
  if (remote.length === 0) return null
  const newest = remote.map((e) => e.version).sort(semver.compare).at(-1) as string
  if (semver.gt(local, newest)) return remote.filter((e) => !e.isDelta && e.version === newest).length ? newest : null
  return semver.gt(newest, local) ? newest : null
}
