/**
 * @module Each updater format as one object: its facts (`./formats.ts`: operation, fixed platform,
 * what its client does, how the docs name it), how to read its client's request, its renderer,
 * and which releases its answer can carry. The update route, the explain endpoint and
 * `decideUpdate` all take the format's object from `PROTOCOLS`.
 */
import type { SemVer } from 'semver'
import type { Release } from '../updates/offer.ts'
import type { UpdateRequest } from '../updates/decide.ts'
import type { Renderer } from './render.ts'
import {
  FORMATS,
  TAURI_ARCHS,
  TAURI_TARGETS,
  type FormatFacts,
  type TauriArch,
  type TauriTarget,
  type UpdaterFormat,
} from './formats.ts'
import { installableFiles, renderElectronUpdater } from './electron-updater.ts'
import { renderFerry } from './ferry.ts'
import { renderSquirrelMac, zipOf } from './squirrel-mac.ts'
import { renderSquirrelWindows } from './squirrel-windows.ts'
import { archiveOf, renderSparkle } from './sparkle.ts'
import { renderTauri, signedBundle } from './tauri.ts'
import { fullPackage, renderVelopack } from './velopack.ts'
import { msixOf, renderMsixFeed } from './msix.ts'
import { identityOf, type IdentityHeaders, type IdentityQuery } from './identity.ts'

/** What the HTTP edge lends a reader: its 400s name the request member that is wrong. */
export interface RequestReading {
  /** The version in the request member `field`; throws a 400 naming `field` when it is not one. */
  version(field: string, raw: string): SemVer
  /** A 400 saying `field` `message`, to throw. */
  invalid(field: string, message: string): Error
}

/** The header every updater may send its device id in. */
interface DeviceHeader {
  'X-Ferry-Device-Id'?: string
}

/** One updater format's code: how to read its client's request, how to render, what it installs. */
export interface UpdaterCode<I, R extends UpdateRequest | undefined = UpdateRequest | undefined> {
  /**
   * The check a validated request of the format's operation asks (its 400s thrown); `undefined`
   * when this request is no update check (a Velopack package).
   */
  read: (input: I, reading: RequestReading) => R
  render: Renderer
  /**
   * Whether the answer can carry this release: each renderer answers "no update" for an offered
   * release without a file its client installs (used by the explain endpoint).
   */
  installs: (release: Release) => boolean
}

/** One updater format: its facts and its code. `I`: the request parameters it reads. */
export type UpdaterProtocol<
  I = never,
  F extends FormatFacts = FormatFacts,
  R extends UpdateRequest | undefined = UpdateRequest | undefined,
> = F & UpdaterCode<I, R>

/** A format's object from its facts and its code (keeping both types: the route binds `read` to its operation). */
const updater = <F extends FormatFacts, I, R extends UpdateRequest | undefined>(
  facts: F,
  code: UpdaterCode<I, R>,
): UpdaterProtocol<I, F, R> => ({
  ...facts,
  ...code,
})

/** A format's path fields that name the target, as most updaters' paths carry them. */
interface TargetPath {
  app: string
  channel: string
  platform: string
  arch: string
}

const ferry = updater(FORMATS.ferry, {
  // Ferry's own check answers in any format (`format`), the platform's by default.
  read: (
    {
      path,
      query,
      header,
    }: {
      path: { app: string }
      query: IdentityQuery & {
        channel: string
        platform: string
        arch: string
        version: string
        format?: UpdateRequest['format']
      }
      header: DeviceHeader & IdentityHeaders
    },
    r,
  ) => ({
    slug: path.app,
    channel: query.channel,
    platform: query.platform,
    arch: query.arch,
    current: r.version('version', query.version),
    format: query.format ?? 'platform',
    deviceId: header['X-Ferry-Device-Id'],
    ...identityOf(header, query, r),
  }),
  render: renderFerry,
  installs: () => true,
})

const squirrelWindows = updater(FORMATS['squirrel-windows'], {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: { app: string; channel: string; arch: string }
      query: { localVersion?: string }
      header: DeviceHeader
    },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: FORMATS['squirrel-windows'].platform,
    arch: path.arch,
    // Squirrel.Windows fetches RELEASES without `localVersion` on its first run.
    current: query.localVersion === undefined ? undefined : r.version('localVersion', query.localVersion),
    format: 'squirrel-windows',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  render: renderSquirrelWindows,
  installs: () => true,
})

const squirrelMac = updater(FORMATS['electron-builtin'], {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: { app: string; channel: string; arch: string }
      query: { version: string }
      header: DeviceHeader
    },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: FORMATS['electron-builtin'].platform,
    arch: path.arch,
    current: r.version('version', query.version),
    format: 'electron-builtin',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  render: renderSquirrelMac,
  installs: (release) => zipOf(release.artifacts) !== undefined,
})

const electronUpdater = updater(FORMATS['electron-updater'], {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: TargetPath & { version: string }
      query: IdentityQuery
      header: DeviceHeader & IdentityHeaders & { 'x-user-staging-id'?: string }
    },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: path.platform,
    arch: path.arch,
    current: r.version('version', path.version),
    format: 'electron-updater',
    // electron-updater sends a per-install UUID in x-user-staging-id on every request.
    deviceId: header['X-Ferry-Device-Id'] ?? header['x-user-staging-id'],
    ...identityOf(header, query, r),
  }),
  render: renderElectronUpdater,
  installs: (release) => installableFiles(release.artifacts).length > 0,
})

const tauri = updater(FORMATS.tauri, {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: { app: string; channel: string; target: TauriTarget; arch: TauriArch; currentVersion: string }
      query: IdentityQuery
      header: DeviceHeader & IdentityHeaders
    },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: TAURI_TARGETS[path.target],
    arch: TAURI_ARCHS[path.arch],
    current: r.version('currentVersion', path.currentVersion),
    format: 'tauri',
    deviceId: header['X-Ferry-Device-Id'],
    ...identityOf(header, query, r),
  }),
  render: renderTauri,
  installs: (release) => signedBundle(release.artifacts) !== undefined,
})

const velopack = updater(FORMATS.velopack, {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: TargetPath & { file: string }
      query: { localVersion?: string; stagingId?: string }
      header: DeviceHeader
    },
    r,
  ) => {
    // A package (`.nupkg`) is a download, not a check.
    if (path.file.endsWith('.nupkg')) return undefined
    if (query.localVersion === undefined)
      throw r.invalid('localVersion', 'is required for the feed (Velopack sends it)')
    return {
      slug: path.app,
      channel: path.channel,
      platform: path.platform,
      arch: path.arch,
      current: r.version('localVersion', query.localVersion),
      format: 'velopack',
      deviceId: header['X-Ferry-Device-Id'] ?? query.stagingId,
    }
  },
  render: renderVelopack,
  installs: (release) => fullPackage(release) !== undefined,
})

const sparkle = updater(FORMATS.sparkle, {
  read: (
    {
      path,
      query,
      header,
    }: { path: TargetPath; query: IdentityQuery & { version: string }; header: DeviceHeader & IdentityHeaders },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: path.platform,
    arch: path.arch,
    current: r.version('version', query.version),
    format: 'sparkle',
    deviceId: header['X-Ferry-Device-Id'],
    ...identityOf(header, query, r),
  }),
  render: renderSparkle,
  installs: (release) => archiveOf(release.artifacts) !== undefined,
})

const msix = updater(FORMATS.msix, {
  read: (
    {
      path,
      query,
      header,
    }: {
      path: { app: string; channel: string; arch: string }
      query: { version: string }
      header: DeviceHeader
    },
    r,
  ) => ({
    slug: path.app,
    channel: path.channel,
    platform: FORMATS.msix.platform,
    arch: path.arch,
    current: r.version('version', query.version),
    format: 'msix',
    deviceId: header['X-Ferry-Device-Id'],
  }),
  render: renderMsixFeed,
  installs: (release) => msixOf(release.artifacts) !== undefined,
})

/** Every updater format's object, each typed with its operation and the parameters it reads. */
export const UPDATERS = {
  'squirrel-windows': squirrelWindows,
  'electron-builtin': squirrelMac,
  'electron-updater': electronUpdater,
  tauri,
  velopack,
  sparkle,
  msix,
  ferry,
}

/** Every updater format's object, in the order of the docs' updaters table. */
export const PROTOCOLS: { [F in UpdaterFormat]: UpdaterProtocol } = UPDATERS
