import { FORMATS, TAURI_ARCHS, type FormatFacts } from '../../server/protocols/formats.ts'
import type { PackageType, UpdaterFormat } from './sandbox-api'

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
  /**
   * How the explain endpoint names this check: the updater format (`undefined`: the platform's
   * default) and the platform when the protocol fixes it. Absent: not an update check.
   */
  explain?: { format: UpdaterFormat | undefined; platform?: string }
}

/** How the explain endpoint names a check in `format`: the format, and the platform its path fixes. */
function explainAs(format: UpdaterFormat): NonNullable<UpdateFormat['explain']> {
  const facts: FormatFacts = FORMATS[format]
  return facts.platform === undefined ? { format } : { format, platform: facts.platform }
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
const appPath = (input: SimulatorInput) => `/v1/apps/${encodeURIComponent(input.app)}`
const seg = encodeURIComponent
const deviceHeader = (input: SimulatorInput): Record<string, string> =>
  input.deviceId ? { 'x-ferry-device-id': input.deviceId } : {}

const ferryJson: UpdateFormat = {
  id: 'ferry-json',
  explain: explainAs('ferry'),
  label: 'Ferry update check (JSON)',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/update?${query({ version: input.version, channel: input.channel, platform: input.platform, arch: input.arch, format: 'ferry' })}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status === 204) return 'Up to date: no update is offered.'
    if (status !== 200) return 'The check failed; the app keeps its current version.'
    const offer = body as { version: string; critical: boolean; intermediate: boolean; artifacts: unknown[] }
    const notes = [
      offer.critical && 'critical: install without asking',
      offer.intermediate && 'intermediate: required before later versions',
    ].filter(Boolean)
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

const platformDefault: UpdateFormat = {
  id: 'platform-default',
  explain: { format: undefined },
  label: "Update check in the platform's default format",
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/update?${query({ version: input.version, channel: input.channel, platform: input.platform, arch: input.arch })}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, headers }) {
    if (status === 204) return 'Up to date: no update is offered.'
    return `Answered in the format the platform's updater setting picks (${headers.get('content-type') ?? 'no body'}).`
  },
}

const squirrelWindows: UpdateFormat = {
  id: 'squirrel-windows',
  explain: explainAs('squirrel-windows'),
  label: 'Squirrel.Windows RELEASES',
  uses: ['version', 'channel', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/squirrel/${seg(input.channel)}/${seg(input.arch)}/RELEASES?${query({ localVersion: input.version })}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status !== 200) return 'No feed: Squirrel reports an error and keeps the installed version.'
    const lines = String(body)
      .split('\n')
      .filter((l) => l.trim())
    const last = lines[lines.length - 1]?.split(' ')[1]
    return lines.length
      ? `${lines.length} package line(s); Squirrel applies packages up to ${last}.`
      : 'An empty feed: nothing to install.'
  },
}

const squirrelMac: UpdateFormat = {
  id: 'squirrel-mac',
  explain: explainAs('electron-builtin'),
  label: "Squirrel.Mac (Electron's autoUpdater on macOS)",
  uses: ['version', 'channel', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/squirrel-mac/${seg(input.channel)}/${seg(input.arch)}?${query({ version: input.version })}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status === 204) return 'Up to date: Squirrel.Mac finds no update.'
    const offer = body as { name?: string; url?: string }
    return `Squirrel.Mac downloads the zip of ${offer.name ?? 'the offered version'} from ${offer.url ?? '(no url)'}.`
  },
}

/** The channel file electron-updater asks for on each platform. */
const electronUpdaterFile = (platform: string) =>
  platform === 'darwin' ? 'latest-mac.yml' : platform === 'linux' ? 'latest-linux.yml' : 'latest.yml'

const electronUpdater: UpdateFormat = {
  id: 'electron-updater',
  explain: explainAs('electron-updater'),
  label: 'electron-updater (generic provider, latest.yml)',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/electron-updater/${seg(input.channel)}/${seg(input.platform)}/${seg(input.arch)}/${seg(input.version)}/${electronUpdaterFile(input.platform)}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status !== 200) return 'No channel file: electron-updater reports an error.'
    const version = /^version:\s*'?([^'\n]+)'?/m.exec(String(body))?.[1]
    return `electron-updater reads version ${version ?? '?'} and updates when it is newer than the installed one.`
  },
}

const velopack: UpdateFormat = {
  id: 'velopack',
  label: 'Velopack (releases.json feed)',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/velopack/${seg(input.channel)}/${seg(input.platform)}/${seg(input.arch)}/releases.${seg(input.platform)}.json?${query({ localVersion: input.version, id: input.app, ...(input.deviceId ? { stagingId: input.deviceId } : {}) })}`,
    headers: {},
  }),
  summarize({ status, body }) {
    if (status !== 200) return 'No feed: Velopack reports an error and keeps the installed version.'
    const assets = (body as { Assets?: Array<{ Type: string; Version: string }> }).Assets ?? []
    const full = assets.find((a) => a.Type === 'Full')
    const deltas = assets.filter((a) => a.Type === 'Delta').length
    return full
      ? `Velopack installs ${full.Version}${deltas ? `, from ${deltas} delta package(s) when it holds its own full package` : ''}.`
      : 'An empty feed: Velopack finds no update.'
  },
}

const sparkle: UpdateFormat = {
  id: 'sparkle',
  label: 'Sparkle / WinSparkle appcast',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/sparkle/${seg(input.channel)}/${seg(input.platform)}/${seg(input.arch)}/appcast.xml?${query({ version: input.version })}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status !== 200) return 'No appcast: Sparkle reports an error.'
    const xml = String(body)
    const version = /<sparkle:version>([^<]*)<\/sparkle:version>/.exec(xml)?.[1]
    if (!version) return 'No item: Sparkle reports that the app is up to date.'
    return `Sparkle offers ${version}${xml.includes('<sparkle:criticalUpdate') ? ' as a critical update' : ''}${xml.includes('sparkle:edSignature=') ? ' and checks its EdDSA signature' : ''}.`
  },
}

/** Ferry architecture names → the `{{arch}}` Tauri puts in its endpoint URL (the server's mapping, inverted). */
const TAURI_ARCH: Record<string, string> = Object.fromEntries(
  Object.entries(TAURI_ARCHS).map(([tauri, ferry]) => [ferry, tauri]),
)

const tauri: UpdateFormat = {
  id: 'tauri',
  explain: explainAs('tauri'),
  label: 'Tauri v2 updater',
  uses: ['version', 'channel', 'platform', 'arch', 'deviceId'],
  request: (input) => ({
    path: `${appPath(input)}/tauri/${seg(input.channel)}/${seg(input.platform)}/${seg(TAURI_ARCH[input.arch] ?? input.arch)}/${seg(input.version)}`,
    headers: deviceHeader(input),
  }),
  summarize({ status, body }) {
    if (status === 204) return 'Up to date: Tauri finds no signed update.'
    const offer = body as { version?: string }
    return `Tauri verifies the signature, then installs ${offer.version ?? 'the offered version'}.`
  },
}

export const UPDATE_FORMATS: readonly UpdateFormat[] = [
  ferryJson,
  platformDefault,
  squirrelWindows,
  squirrelMac,
  electronUpdater,
  tauri,
  velopack,
  sparkle,
  latestRedirect,
]

export const PACKAGE_TYPES = [
  'exe',
  'msi',
  'nupkg',
  'dmg',
  'pkg',
  'zip',
  'tar.gz',
  'appimage',
  'deb',
  'rpm',
  'snap',
  'blockmap',
  'yml',
  'sig',
  'edsig',
  'delta',
  'msix',
  'msixbundle',
] as const satisfies readonly PackageType[]
// Fails to compile when the spec gains a package type this list lacks.
const allPackageTypes: Exclude<PackageType, (typeof PACKAGE_TYPES)[number]> extends never ? true : never = true
void allPackageTypes
