import type { PackageType } from './sandbox-api'

/** What the simulated installed app knows about itself. */
export interface SimulatorInput {
  app: string
  version: string
  channel: string
  platform: string
  arch: string
  packageType: PackageType
  deviceId: string
}

/** The answer as the installed app receives it. */
export interface SimulatedAnswer {
  status: number
  headers: Headers
  body: unknown
}

/**
 * One way an installed app (or a download page) asks Ferry for a build. The simulator offers
 * exactly this list; an updater protocol is one more entry here.
 */
export interface UpdateFormat {
  id: string
  label: string
  /** Inputs the request is built from (the simulator shows only these). */
  uses: ReadonlyArray<keyof SimulatorInput>
  request(input: SimulatorInput): { path: string; headers: Record<string, string> }
  /** One sentence: what the installed app would do with the answer. */
  summarize(answer: SimulatedAnswer): string
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
const appPath = (input: SimulatorInput) => `/v1/apps/${encodeURIComponent(input.app)}`

const ferryJson: UpdateFormat = {
  id: 'ferry-json',
  label: 'Ferry update check (JSON)',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/update?${query({ version: input.version, channel: input.channel, platform: input.platform, arch: input.arch, format: 'ferry' })}`,
    headers: input.deviceId ? { 'x-ferry-device-id': input.deviceId } : ({} as Record<string, string>),
  }),
  summarize({ status, body }) {
    if (status === 204) return 'Up to date: no update is offered.'
    if (status !== 200) return 'The check failed; the app keeps its current version.'
    const offer = body as { version: string; critical: boolean; intermediate: boolean; artifacts: unknown[] }
    const notes = [offer.critical && 'critical: install without asking', offer.intermediate && 'intermediate: required before later versions'].filter(Boolean)
    return `Offers version ${offer.version}${notes.length ? ` (${notes.join('; ')})` : ''} with ${offer.artifacts.length} file(s).`
  },
}

const latestRedirect: UpdateFormat = {
  id: 'latest-build',
  label: 'Latest-build link (302 redirect)',
  uses: ['channel', 'platform', 'arch', 'packageType'],
  request: (input) => ({
    path: `${appPath(input)}/latest?${query({ packageType: input.packageType, platform: input.platform, arch: input.arch, channel: input.channel })}`,
    headers: {},
  }),
  summarize({ status, headers }) {
    if (status === 302) return `Redirects the download to ${headers.get('location') ?? '(no Location header)'}.`
    return 'No build to link to.'
  },
}

export const UPDATE_FORMATS: readonly UpdateFormat[] = [ferryJson, latestRedirect]

export const PACKAGE_TYPES = ['exe', 'msi', 'nupkg', 'dmg', 'pkg', 'zip', 'tar.gz', 'appimage', 'deb', 'rpm', 'snap', 'blockmap', 'yml', 'sig'] as const satisfies readonly PackageType[]
// Fails to compile when the spec gains a package type this list lacks.
const allPackageTypes: Exclude<PackageType, (typeof PACKAGE_TYPES)[number]> extends never ? true : never = true
void allPackageTypes
