/**
 * electron-updater's own generic provider, run in Node: its channel-file naming, request,
 * YAML parsing (`parseUpdateInfo`) and file resolution, with a plain Node HTTP executor in place
 * of Electron's `net`.
 */
import http from 'node:http'
import { createRequire } from 'node:module'
import semver from 'semver'

const require = createRequire(import.meta.url)
const { GenericProvider } = require('electron-updater/out/providers/GenericProvider.js') as {
  GenericProvider: new (
    config: object,
    updater: object,
    runtime: object,
  ) => {
    getLatestVersion(): Promise<UpdateInfo>
    resolveFiles(info: UpdateInfo): Array<{ url: URL; info: { sha512: string; size: number } }>
    setRequestHeaders(headers: Record<string, string>): void
  }
}
interface DownloadOptions {
  sha512?: string
  headers?: Record<string, string>
  cancellationToken: {
    createPromise<T>(
      fn: (resolve: (v: T) => void, reject: (e: Error) => void, onCancel: (cb: () => void) => void) => void,
    ): Promise<T>
  }
}
interface BaseExecutor {
  request(options: object): Promise<string>
  doDownload(requestOptions: object, options: object, redirectCount: number): void
}
const runtime = require('builder-util-runtime') as {
  HttpExecutor: new () => BaseExecutor
  CancellationToken: new () => DownloadOptions['cancellationToken']
  configureRequestUrl(url: URL, options: object): void
  configureRequestOptions(options: object): object
}

/** builder-util-runtime's executor on Node's http, downloading as electron-updater's Electron executor does. */
class NodeHttpExecutor extends runtime.HttpExecutor {
  createRequest(options: http.RequestOptions, callback: (res: http.IncomingMessage) => void) {
    return http.request(options, callback)
  }

  /** ElectronHttpExecutor.download, on Node: streams to `destination`, checking `options.sha512` as it goes. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined }
      runtime.configureRequestUrl(url, requestOptions)
      runtime.configureRequestOptions(requestOptions)
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          responseHandler: null,
          callback: (error: Error | null) => {
            if (error == null) resolve(destination)
            else reject(error)
          },
        },
        0,
      )
    })
  }
}

/** Downloads `url` to `destination` as electron-updater does, failing unless the bytes match `sha512` (base64). */
export function electronUpdaterDownload(url: URL, destination: string, sha512: string): Promise<string> {
  return new NodeHttpExecutor().download(url, destination, {
    sha512,
    cancellationToken: new runtime.CancellationToken(),
  })
}

export interface UpdateInfo {
  version: string
  files: Array<{ url: string; sha512: string; size: number }>
  path?: string
  sha512?: string
  releaseDate?: string
  releaseNotes?: string
  stagingPercentage?: number
  critical?: boolean
}

export interface ElectronUpdaterCheck {
  info: UpdateInfo
  requested: string
  available: boolean
  files: Array<{ url: URL; info: { sha512: string; size: number } }>
}

/** What `autoUpdater.checkForUpdates()` would see on `platform` (`win32`, `darwin`, `linux`). */
export async function electronUpdaterCheck(
  feedUrl: string,
  current: string,
  platform: NodeJS.Platform,
  headers: Record<string, string> = {},
): Promise<ElectronUpdaterCheck> {
  let requested = ''
  const executor = new NodeHttpExecutor()
  const original = executor.request.bind(executor)
  executor.request = (options: object) => {
    const o = options as { path?: string }
    requested = o.path ?? ''
    return original(options)
  }
  const provider = new GenericProvider(
    { provider: 'generic', url: feedUrl },
    { channel: null, isAddNoCacheQuery: false },
    { executor, isUseMultipleRangeRequest: false, platform },
  )
  provider.setRequestHeaders(headers)
  const info = await provider.getLatestVersion()
  // AppUpdater.isUpdateAvailable without staging: newer semver only.
  const available = semver.valid(info.version) !== null && semver.gt(info.version, current)
  return { info, requested, available, files: available ? provider.resolveFiles(info) : [] }
}

/** The slice of electron-updater's `AppUpdater` an app's code uses, typed for the tests. */
export interface AppUpdater {
  setFeedURL(options: { provider: 'generic'; url: string }): void
  checkForUpdates(): Promise<{
    updateInfo: UpdateInfo
    isUpdateAvailable: boolean
    downloadPromise?: Promise<string[]> | null
  } | null>
  quitAndInstall(): void
  on(event: string, listener: (...args: never[]) => void): this
  logger: { info(m: unknown): void; warn(m: unknown): void; error(m: unknown): void } | null
}

export interface InstalledApp {
  version: string
  name: string
  userData: string
  cache: string
  appUpdateConfig: string
}

/**
 * electron-updater's own Windows updater (`NsisUpdater`: update check, staging, download into its
 * cache with the SHA-512 check) for an installed app
 * described by `installed`, with Node's http in place of Electron's `net`. Installing is not run.
 */
export function nsisUpdater(
  installed: InstalledApp,
  log: string[],
  options: { differential?: boolean } = {},
): AppUpdater {
  const { NsisUpdater } = require('electron-updater/out/NsisUpdater.js') as {
    NsisUpdater: new (options: null, app: object) => AppUpdater & { httpExecutor: object; _testOnlyOptions: object }
  }
  const updater = new NsisUpdater(null, {
    version: installed.version,
    name: installed.name,
    isPackaged: true,
    appUpdateConfigPath: installed.appUpdateConfig,
    userDataPath: installed.userData,
    baseCachePath: installed.cache,
    whenReady: () => Promise.resolve(),
    relaunch() {},
    quit() {},
    onQuit() {},
  })
  updater.httpExecutor = new NodeHttpExecutor()
  // The platform the provider names its channel file for. In this test mode electron-updater
  // rethrows a failed differential download instead of falling back to the full file, so a test
  // that turns it on fails when the differential download does. It needs the installed version's
  // installer in the cache (`installer.exe`, where the NSIS installer leaves it) and both blockmaps.
  updater._testOnlyOptions = { platform: 'win32', isUseDifferentialDownload: options.differential === true }
  const record = (level: string) => (m: unknown) => {
    log.push(`${level}: ${m instanceof Error ? m.message : String(m)}`)
  }
  updater.logger = { info: record('info'), warn: record('warn'), error: record('error') }
  return updater
}
