/**
 * The contract's examples name ids (`ver_2Qm8`, `ch_5t1b`…) that exist in no sandbox: its ids are
 * random. In sandbox mode Try it fills each such parameter with the id of a seeded thing
 * (server/seed.ts) the operation can act on, and a few values the seed needs, so the first send
 * succeeds. The reader sees the filled values in the form and can change them.
 */
import { DEMO_LOGIN } from '../../../server/demo/seed.ts'

/** Calls the sandbox with the demo session's token; answers the status and the parsed body. */
export type SandboxCall = (path: string) => Promise<{ status: number; json: unknown }>

export interface SandboxValues {
  /** Parameter values by `in:name` (build-request's paramKey). */
  params: Record<string, string>
  /** A JSON body to send instead of the contract's example. */
  body?: string
}

type Item = Record<string, unknown>

const isItem = (x: unknown): x is Item => typeof x === 'object' && x !== null && !Array.isArray(x)
const str = (item: Item | undefined, key: string): string | undefined =>
  item && typeof item[key] === 'string' ? item[key] : undefined

async function items(call: SandboxCall, path: string): Promise<Item[]> {
  const { status, json } = await call(path)
  if (status !== 200 || !isItem(json) || !Array.isArray(json.items)) return []
  return json.items.filter(isItem)
}

const rollout = (v: Item, key: 'paused' | 'pulled') =>
  isItem(v.rollout) && v.rollout[key] !== null && v.rollout[key] !== undefined
const live = (v: Item) => v.published === true && !rollout(v, 'paused') && !rollout(v, 'pulled')
const artifacts = (v: Item | undefined) => (v && Array.isArray(v.artifacts) ? v.artifacts.filter(isItem) : [])

const DEMO_APPS = ['harbor-notes', 'lighthouse-admin', 'tidewatch']

/** Which seeded version each version operation acts on, by app (the seed's apps). */
const VERSION_PICKS: Record<string, { app: string; pick: (v: Item) => boolean }> = {
  updateVersion: { app: 'harbor-notes', pick: (v) => v.channel === 'beta' && live(v) },
  pauseVersion: { app: 'harbor-notes', pick: (v) => v.version === '1.2.0' && v.platform === 'darwin' && live(v) },
  resumeVersion: { app: 'tidewatch', pick: (v) => rollout(v, 'paused') },
  pullVersion: { app: 'harbor-notes', pick: (v) => v.version === '1.2.0' && v.platform === 'linux' && live(v) },
  // The draft: deleting it changes no update answer.
  deleteVersion: { app: 'harbor-notes', pick: (v) => v.published === false },
  deleteArtifact: {
    app: 'harbor-notes',
    pick: (v) => artifacts(v).some((a) => /delta/.test(str(a, 'fileName') ?? '')),
  },
  downloadArtifact: { app: 'harbor-notes', pick: (v) => v.version === '1.2.0' && v.platform === 'windows' },
  getVersionAdoption: { app: 'harbor-notes', pick: (v) => v.version === '1.2.0' && v.platform === 'windows' },
}

/**
 * Catalog operations, the list their `id` comes from, and the seeded entry to change when no
 * version-free one exists (the create example's adds one). A deletion needs a version-free entry.
 */
const CATALOGS: Record<string, { list: string; fallback?: string }> = {
  updateChannel: { list: '/v1/channels', fallback: 'beta' },
  deleteChannel: { list: '/v1/channels' },
  // Linux: the contract's examples check updates for Windows and macOS.
  updatePlatform: { list: '/v1/platforms', fallback: 'linux' },
  deletePlatform: { list: '/v1/platforms' },
  updateArch: { list: '/v1/archs', fallback: 'universal' },
  deleteArch: { list: '/v1/archs' },
}

/**
 * Operations whose example acts on a record the demo seed does not hold yet (a webhook
 * subscription and its deliveries, a `.deb`/`.rpm` or `.msix` package, TUF signing): in the sandbox their first send
 * answers the documented 404 naming what is missing, and the tests check exactly that.
 */
export const NOT_IN_SEED: Record<string, string> = {
  getWebhook: 'a webhook subscription',
  updateWebhook: 'a webhook subscription',
  deleteWebhook: 'a webhook subscription',
  deleteRule: 'a hold, pin or targeting rule',
  listWebhookDeliveries: 'a webhook subscription',
  testWebhook: 'a webhook subscription',
  redeliverWebhook: 'a webhook delivery',
  getAptPackageFile: 'a .deb package',
  getRpmPackageFile: 'an .rpm package',
  getMsixAppInstaller: 'an .msix package',
  getMsixPackage: 'an .msix package',
  getTufMetadata: 'a TUF signer, which the in-browser sandbox does not have,',
  publishTufMetadata: 'a TUF signer, which the in-browser sandbox does not have,',
  callMcp: 'an MCP server, which the in-browser sandbox does not have,',
}

/** Values the seed needs that differ from the contract's own story (whose latest is 1.4.0). */
const FIXED: Record<string, Record<string, string>> = {
  getElectronUpdaterFile: { 'path:version': '1.2.0', 'path:file': 'HarborNotes-Setup-1.2.0.exe' },
  getSquirrelPackage: { 'path:file': 'harbor-notes-1.2.0-full.nupkg' },
  getVelopackFile: { 'query:localVersion': '1.0.0' },
  // The seed holds no .deb: its apt index is the empty file, whose SHA-256 this is.
  getAptIndexByHash: { 'path:hash': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
}

export async function sandboxValues(operationId: string, call: SandboxCall): Promise<SandboxValues> {
  const fixed = FIXED[operationId]
  if (fixed) return { params: { ...fixed } }
  const versionPick = VERSION_PICKS[operationId]
  if (versionPick) {
    const version = (await items(call, `/v1/apps/${versionPick.app}/versions?limit=100`)).find(versionPick.pick)
    const params: Record<string, string> = { 'path:app': versionPick.app }
    const id = str(version, 'id')
    if (id) params['path:version'] = id
    const files = artifacts(version)
    const artifact =
      operationId === 'deleteArtifact' ? files.find((a) => /delta/.test(str(a, 'fileName') ?? '')) : files[0]
    const artifactId = str(artifact, 'id')
    if (artifactId) params['path:artifact'] = artifactId
    return { params }
  }
  const catalog = CATALOGS[operationId]
  if (catalog) {
    const entries = await items(call, catalog.list)
    const used = new Set((await items(call, '/v1/versions?limit=100')).flatMap((v) => [v.channel, v.platform, v.arch]))
    const entry =
      entries.find((e) => !used.has(e.name)) ??
      entries.find((e) => catalog.fallback !== undefined && e.name === catalog.fallback)
    const id = str(entry, 'id')
    return { params: id ? { 'path:id': id } : {} }
  }
  if (operationId === 'updateApp' || operationId === 'deleteApp') {
    // An app the reader added (the create example's), or else the private one: the public demo
    // apps stay as the update examples need them.
    const added = (await items(call, '/v1/apps'))
      .map((a) => str(a, 'slug'))
      .filter((slug) => slug !== undefined && !DEMO_APPS.includes(slug))
    return { params: { 'path:app': added.at(-1) ?? 'lighthouse-admin' } }
  }
  if (operationId === 'updateTeamUser' || operationId === 'deleteTeamUser') {
    // The newest user: the one the create example added, or else the seed's Grace.
    const id = str((await items(call, '/v1/team/users')).filter((u) => u.role !== 'admin').at(-1), 'id')
    return { params: id ? { 'path:id': id } : {} }
  }
  if (operationId === 'revokeApiToken') {
    const id = str((await items(call, '/v1/team/tokens')).at(-1), 'id')
    return { params: id ? { 'path:id': id } : {} }
  }
  if (operationId === 'login') {
    // The contract's example account exists only after its signup example; the demo admin always does.
    return { params: {}, body: JSON.stringify(DEMO_LOGIN, null, 2) }
  }
  if (operationId === 'updateAdminPassword') {
    // Keeps the demo login working: the same password, so the page's demo credentials stay true.
    return {
      params: {},
      body: JSON.stringify({ currentPassword: DEMO_LOGIN.password, newPassword: DEMO_LOGIN.password }, null, 2),
    }
  }
  return { params: {} }
}
