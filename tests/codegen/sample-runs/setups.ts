/**
 * What each operation's sample needs on the demo-seeded server before it runs, made fresh for
 * every run so no sample depends on another: the records it acts on (an app to delete, a version
 * to pause), and which of the contract's example values a reader would replace with their own
 * (`ver_2Qm8` by their version's id). Operations not listed read the seed as it is.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { OperationModel } from '../../../lib/codegen/model.ts'
import { PASSWORD, type Fetch } from '../../server/helpers.ts'
import { buildDeb, buildRpm } from '../../server/linux-package-fixtures.ts'

export interface Api {
  call: Fetch
  /** The demo admin's token. */
  token: string
  signupKey: string
}

export interface Setup {
  /** The token the sample sends instead of the demo admin's. */
  token?: string
  /** Example values in the sample → the values of this run's own records. */
  replace?: Record<string, string>
}

/** Samples not run, by operationId or `operationId/x-codeSamples label`, and why. */
export const NOT_RUN: Record<string, string> = {
  'uploadVersion/Ferry CLI':
    'publishes an electron-builder output folder from a Ferry checkout; tests/ferry-cli covers `ferry publish`',
  getTufMetadata:
    'answers only for an app whose team stored a root signed with keys made for it; tests/server/tuf.test.ts and contract.test.ts read every file with tuf-js and the contract',
  publishTufMetadata:
    "the example's signatures are illustrative, and real ones need the app's own keys; tests/server/tuf.test.ts and contract.test.ts send signed root and targets",
}

/** The example's file names a multipart sample opens; the run's working directory holds them. */
export function uploadFiles(op: OperationModel): string[] {
  const body = op.requestBody
  if (body?.contentType !== 'multipart/form-data' || !body.example || typeof body.example !== 'object') return []
  const example = body.example as Record<string, unknown>
  return body.fileFields.flatMap((field) => [example[field]].flat().map(String))
}

async function send(api: Api, method: string, path: string, body?: unknown, token = api.token): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const res = await api.call(path, { method, headers, body: payload })
  const text = await res.text()
  if (!res.ok) throw new Error(`sample set-up: ${method} ${path} answered ${res.status}: ${text}`)
  return text ? JSON.parse(text) : undefined
}

const post = (api: Api, path: string, body: unknown, token?: string) => send(api, 'POST', path, body, token)

async function signupTeam(api: Api, email: string): Promise<string> {
  const res = await api.call('/v1/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ferry-signup-key': api.signupKey },
    body: JSON.stringify({ teamName: `Team ${email}`, name: 'Sample Reader', email, password: PASSWORD }),
  })
  if (res.status !== 201) throw new Error(`sample set-up: signup of ${email} answered ${res.status}`)
  return ((await res.json()) as { token: string }).token
}

interface Version {
  id: string
  artifacts: { id: string; fileName: string }[]
}

type Files = [name: string, content: Uint8Array<ArrayBuffer> | string][]

const createApp = (api: Api, slug: string) => post(api, '/v1/apps', { slug, name: `App ${slug}` })

/** A published version 1.4.0 (or `version`) of `slug` on stable, `platform`, `arch`. */
async function upload(
  api: Api,
  slug: string,
  files: Files,
  { version = '1.4.0', platform = 'windows', arch = 'x64' } = {},
): Promise<Version> {
  const form = new FormData()
  for (const [name, value] of Object.entries({ version, channel: 'stable', platform, arch, published: 'true' }))
    form.set(name, value)
  for (const [name, content] of files) form.append('files', new File([content], name))
  return (await post(api, `/v1/apps/${slug}/versions`, form)) as Version
}

function artifactId(version: Version, suffix: string): string {
  const artifact = version.artifacts.find((a) => a.fileName.endsWith(suffix))
  if (!artifact) throw new Error(`sample set-up: no ${suffix} artifact in ${version.id}`)
  return artifact.id
}

/** A fresh app with version 1.4.0 for Windows, in place of harbor-notes and its ver_2Qm8 and art_7h3j. */
async function appWithVersion(
  api: Api,
  slug: string,
): Promise<{ slug: string; version: Version; replace: Record<string, string> }> {
  await createApp(api, slug)
  const version = await upload(api, slug, [
    ['HarborNotes-Setup-1.4.0.exe', 'sample installer\n'],
    ['HarborNotes-Setup-1.4.0.exe.blockmap', 'sample blockmap\n'],
    [`${slug}-1.4.0-full.nupkg`, 'sample package\n'],
  ])
  return {
    slug,
    version,
    replace: { 'harbor-notes': slug, ver_2Qm8: version.id, art_7h3j: artifactId(version, '.exe') },
  }
}

/** Read-only samples share their records: made once, on the first run that needs them. */
function once<T>(make: (api: Api) => Promise<T>): (api: Api) => Promise<T> {
  let made: Promise<T> | undefined
  return (api) => (made ??= make(api))
}

/** An app with a real .deb and .rpm of 1.4.0 for Linux, for the apt and rpm repository samples. */
const linuxVersion = once(async (api) => {
  await createApp(api, 'linux-repo')
  return upload(
    api,
    'linux-repo',
    [
      ['linux-repo_1.4.0_amd64.deb', new Uint8Array(buildDeb('linux-repo', '1.4.0'))],
      ['linux-repo-1.4.0-1.x86_64.rpm', new Uint8Array(buildRpm('linux-repo', '1.4.0'))],
    ],
    { platform: 'linux' },
  )
})
const linuxRepository =
  (suffix: '.deb' | '.rpm'): SetUp =>
  async (api) => {
    const version = await linuxVersion(api)
    return { replace: { 'harbor-notes': 'linux-repo', ver_2Qm8: version.id, art_7h3j: artifactId(version, suffix) } }
  }

/** The apt repository's samples, with the example hash replaced by the SHA-256 its `Release` lists for amd64's `Packages`. */
const aptIndexByHash: SetUp = async (api, u) => {
  const setup = await linuxRepository('.deb')(api, u)
  const release = await (await api.call('/v1/apps/linux-repo/apt/dists/stable/Release')).text()
  const hash = /([0-9a-f]{64}) +\d+ main\/binary-amd64\/Packages\n/.exec(release)?.[1]
  if (!hash) throw new Error(`sample set-up: no amd64 Packages in the Release:\n${release}`)
  return { replace: { ...setup.replace, '3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d': hash } }
}

/** An app with Electron's signed test MSIX (tests/server/fixtures/msix) as version 2.0.0. */
const msixApp = once(async (api): Promise<Setup> => {
  const msix = new Uint8Array(readFileSync(join(import.meta.dirname, '../../server/fixtures/msix/HelloMSIX_V2.msix')))
  await createApp(api, 'msix-app')
  const version = await upload(api, 'msix-app', [['HarborNotes-1.4.0-x64.msix', msix]], { version: '2.0.0' })
  return { replace: { 'harbor-notes': 'msix-app', ver_2Qm8: version.id, art_7h3j: artifactId(version, '.msix') } }
})

/**
 * An app whose newest version, 1.4.0, is newer than the 1.2.3 or 1.3.0 the update samples ask
 * from: for Windows (Squirrel, electron-updater, Velopack), macOS x64 (Squirrel.Mac) and macOS
 * arm64 (Tauri, with the .sig its bundler writes).
 */
const updatableApp = once(async (api): Promise<Setup> => {
  const { slug, replace } = await appWithVersion(api, 'app-updates')
  await upload(api, slug, [['HarborNotes-1.4.0-mac.zip', 'sample zip\n']], { platform: 'darwin' })
  await upload(
    api,
    slug,
    [
      ['HarborNotes.app.tar.gz', 'sample bundle\n'],
      ['HarborNotes.app.tar.gz.sig', `${btoa('untrusted comment: sample signature')}\n`],
    ],
    { platform: 'darwin', arch: 'arm64' },
  )
  return { replace }
})

type SetUp = (api: Api, u: string) => Promise<Setup>

const freshApp: SetUp = async (api, u) => {
  await createApp(api, `app-${u}`)
  return { replace: { 'harbor-notes': `app-${u}` } }
}
const versionOfFreshApp: SetUp = async (api, u) => ({ replace: (await appWithVersion(api, `app-${u}`)).replace })

/** A catalog entry (channel, platform, arch) of the demo team, in place of the example's id. */
const catalogEntry =
  (path: string, exampleId: string, ...names: string[]): SetUp =>
  async (api, u) => {
    const created = (await post(api, path, { name: `sample-${u}` })) as { id: string }
    return { replace: { [exampleId]: created.id, ...Object.fromEntries(names.map((name) => [name, `${name}-${u}`])) } }
  }

/** Fresh names in place of the example's, where names are unique in the team. */
const renamed =
  (...names: string[]): SetUp =>
  async (_api, u) => ({ replace: Object.fromEntries(names.map((name) => [name, `${name}-${u}`])) })

const teamUser: SetUp = async (api, u) => {
  const user = (await post(api, '/v1/team/users', {
    email: `${u}@acme.test`,
    name: `User ${u}`,
    password: PASSWORD,
    permissions: {},
  })) as { id: string }
  return { replace: { usr_3h8c: user.id } }
}

/** A subscription in a team of its own (a team holds at most 50), in place of the example's. */
const webhook: SetUp = async (api, u) => {
  const token = await signupTeam(api, `${u}@acme.test`)
  const hook = (await post(
    api,
    '/v1/webhooks',
    { url: 'https://hooks.example.org/ferry', events: ['version.paused'] },
    token,
  )) as {
    id: string
  }
  return { token, replace: { whk_7Hc2Lq9P: hook.id } }
}

/** A subscription with one delivery (its test event), in place of the example's. */
const delivery: SetUp = async (api, u) => {
  const { token, replace } = await webhook(api, u)
  const sent = (await post(api, `/v1/webhooks/${replace?.whk_7Hc2Lq9P}/test`, undefined, token)) as { id: string }
  return { token, replace: { ...replace, dlv_2Kd8Rt4Y: sent.id } }
}

/** A hold on a fresh app, in place of the example's rule. */
const rule: SetUp = async (api, u) => {
  await createApp(api, `app-${u}`)
  const created = (await post(api, `/v1/apps/app-${u}/rules`, { kind: 'hold', reason: 'sample' })) as { id: string }
  return { replace: { 'harbor-notes': `app-${u}`, rul_4Tn8Vq2K: created.id } }
}

let adaSignedUp = false

const SETUPS: Partial<Record<string, SetUp>> = {
  signup: async (_api, u) => ({ replace: { 'ada@acme.test': `${u}@acme.test` } }),
  // One reader logs in the same way in every language.
  login: async (api) => {
    if (!adaSignedUp) await signupTeam(api, 'ada@acme.test')
    adaSignedUp = true
    return {}
  },
  createApp: renamed('saltmarsh'),
  updateApp: freshApp,
  deleteApp: freshApp,
  uploadVersion: freshApp,
  updateVersion: versionOfFreshApp,
  deleteVersion: versionOfFreshApp,
  pauseVersion: versionOfFreshApp,
  resumeVersion: async (api, u) => {
    const { slug, version, replace } = await appWithVersion(api, `app-${u}`)
    await post(api, `/v1/apps/${slug}/versions/${version.id}/pause`, { reason: 'paused before the sample resumes it' })
    return { replace }
  },
  pullVersion: versionOfFreshApp,
  getVersionAdoption: versionOfFreshApp,
  deleteArtifact: versionOfFreshApp,
  downloadArtifact: versionOfFreshApp,
  reportUpdateOutcome: versionOfFreshApp,
  createChannel: renamed('nightly'),
  updateChannel: catalogEntry('/v1/channels', 'ch_5t1b'),
  deleteChannel: catalogEntry('/v1/channels', 'ch_5t1b'),
  createPlatform: renamed('macos'),
  updatePlatform: catalogEntry('/v1/platforms', 'pl_3w8d'),
  deletePlatform: catalogEntry('/v1/platforms', 'pl_3w8d'),
  createArch: renamed('ia32'),
  updateArch: catalogEntry('/v1/archs', 'ar_2c7v', 'aarch64'),
  deleteArch: catalogEntry('/v1/archs', 'ar_2c7v'),
  createTeamUser: async (_api, u) => ({ replace: { 'grace@acme.test': `${u}@acme.test` } }),
  updateTeamUser: teamUser,
  deleteTeamUser: teamUser,
  // The example's current password is the one this reader's team was created with.
  updateAdminPassword: async (api, u) => ({ token: await signupTeam(api, `${u}@acme.test`) }),
  // A team's token names are unique: each language's reader names its own.
  createApiToken: renamed('github-actions-release'),
  revokeApiToken: async (api, u) => {
    const token = (await post(api, '/v1/team/tokens', { name: `sample-${u}`, permissions: {} })) as { id: string }
    return { replace: { tok_4Rk9Wq2n: token.id } }
  },
  getWebhook: webhook,
  updateWebhook: webhook,
  deleteWebhook: webhook,
  listWebhookDeliveries: webhook,
  testWebhook: webhook,
  redeliverWebhook: delivery,
  checkForUpdate: updatableApp,
  explainUpdate: updatableApp,
  getSquirrelPackage: updatableApp,
  getSquirrelMacUpdate: updatableApp,
  getTauriUpdate: updatableApp,
  getElectronUpdaterFeed: updatableApp,
  getElectronUpdaterCohortFeed: updatableApp,
  createRule: freshApp,
  listRules: freshApp,
  deleteRule: rule,
  getElectronUpdaterFile: updatableApp,
  getVelopackFile: updatableApp,
  getAptRelease: linuxRepository('.deb'),
  getAptPackages: linuxRepository('.deb'),
  getAptIndexByHash: aptIndexByHash,
  getAptPackageFile: linuxRepository('.deb'),
  getRpmMetadata: linuxRepository('.rpm'),
  getRpmPackageFile: linuxRepository('.rpm'),
  getMsixUpdate: msixApp,
  getMsixAppInstaller: msixApp,
  getMsixPackage: msixApp,
}

export async function setUp(operationId: string, api: Api, unique: string): Promise<Setup> {
  return (await SETUPS[operationId]?.(api, unique)) ?? {}
}
