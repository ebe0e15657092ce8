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
  GenericProvider: new (config: object, updater: object, runtime: object) => {
    getLatestVersion(): Promise<UpdateInfo>
    resolveFiles(info: UpdateInfo): Array<{ url: URL; info: { sha512: string; size: number } }>
    setRequestHeaders(headers: Record<string, string>): void
  }
}
const { HttpExecutor } = require('builder-util-runtime') as { HttpExecutor: new () => object }

class NodeHttpExecutor extends (HttpExecutor as new () => { request(options: object): Promise<string> }) {
  createRequest(options: http.RequestOptions, callback: (res: http.IncomingMessage) => void) {
    return http.request(options, callback)
  }
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

export interface ElectronUpdaterCheck { info: UpdateInfo; requested: string; available: boolean; files: Array<{ url: URL; info: { sha512: string; size: number } }> }

/** What `autoUpdater.checkForUpdates()` would see on `platform` (`win32`, `darwin`, `linux`). */
export async function electronUpdaterCheck(feedUrl: string, current: string, platform: NodeJS.Platform, headers: Record<string, string> = {}): Promise<ElectronUpdaterCheck> {
  let requested = ''
  const executor = new NodeHttpExecutor()
  const original = executor.request.bind(executor)
  executor.request = (options: object) => {
    const o = options as { path?: string }
    requested = o.path ?? ''
    return original(options)
  }
  const provider = new GenericProvider({ provider: 'generic', url: feedUrl }, { channel: null, isAddNoCacheQuery: false },
    { executor, isUseMultipleRangeRequest: false, platform })
  provider.setRequestHeaders(headers)
  const info = await provider.getLatestVersion()
  // AppUpdater.isUpdateAvailable without staging: newer semver only.
  const available = semver.valid(info.version) !== null && semver.gt(info.version, current)
  return { info, requested, available, files: available ? provider.resolveFiles(info) : [] }
}
