/**
 * Permission matrix: every operation × {anonymous, team user without the permission, with it,
 * with it but limited to other resources, admin, admin of another team, an API token of the user
 * with it holding all their grants}, each on a fresh fixture.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { hashApiToken } from '../../server/auth/api-tokens.ts'
import { hashPassword } from '../../server/core/crypto.ts'
import { normalizePermissions } from '../../server/auth/permissions.ts'
import { operations, type OperationId, type OperationSpec } from '../../server/http/spec.ts'
import { versionKey } from '../../server/storage/releases/version-key.ts'
import { buildRoot, expiresInDays, newKeyPem, signWith, signingKey } from '../../lib/ferry-cli/tuf-metadata.ts'
import {
  JWT_SECRET,
  PASSWORD,
  SIGNUP_KEY,
  TEST_ITERATIONS,
  expectSpec,
  jsonBody,
  memoryApp,
  uploadForm,
} from './helpers.ts'

/** The server's online TUF key, stored in each fixture, and a root v1 for app-a that names it. */
const TUF = await (async () => {
  const pem = newKeyPem()
  const online = await signingKey(pem, 'online')
  const rootKey = await signingKey(newKeyPem(), 'root')
  const root = buildRoot({
    version: 1,
    expires: expiresInDays(365),
    root: { keys: [rootKey], threshold: 1 },
    targets: { keys: [rootKey], threshold: 1 },
    online,
  })
  signWith(root, [rootKey])
  const privateKey = online.privateKey
    .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: JWT_SECRET })
    .toString()
  return {
    root: root.toJSON(),
    onlineRow: {
      id: 'online',
      public_key: online.public.keyval.public,
      private_key: privateKey,
      created_at: '2025-01-01T00:00:00Z',
    },
  }
})()

type Role = 'anonymous' | 'without' | 'with' | 'outside' | 'admin' | 'otherAdmin' | 'token'
const ROLES: Role[] = ['anonymous', 'without', 'with', 'outside', 'admin', 'otherAdmin', 'token']
const API_TOKEN = 'ferry_PermissionMatrixToken01234567890'
/** Token management: a team user's own tokens; never by a token. */
const TOKEN_OPS = new Set<OperationId>(['createApiToken', 'listApiTokens', 'revokeApiToken'])
const passwordHash = hashPassword(PASSWORD, TEST_ITERATIONS)
const NOW = '2025-01-01T00:00:00Z'
const MCP_ACCEPT = 'application/json, text/event-stream'

const ALL_GRANTS = [
  'apps.create',
  'apps.edit',
  'apps.delete',
  'apps.upload',
  'apps.download',
  ...['channels', 'platforms', 'archs'].flatMap((c) => [`${c}.create`, `${c}.edit`, `${c}.delete`]),
]

function matrix(grants: string[], allowed?: string[]) {
  const p: Record<string, Record<string, { enabled: boolean; allowed?: string[] }>> = {}
  for (const g of grants) {
    const [area, action] = g.split('.') as [string, string]
    p[area] = { ...p[area], [action]: allowed ? { enabled: true, allowed } : { enabled: true } }
  }
  return JSON.stringify(normalizePermissions(p))
}

async function fixture(op: OperationSpec) {
  const m = await memoryApp()
  const db = m.db
  const perm = op.permission
  const isMatrix = perm.includes('.')
  const withGrants = isMatrix ? [perm] : []
  const withoutGrants = ALL_GRANTS.filter((g) => g !== perm)
  const outside = isMatrix
    ? matrix([perm], ['elsewhere', 'ch_elsewhere'])
    : matrix(
        ALL_GRANTS.filter((g) => g.startsWith('apps.')),
        ['elsewhere'],
      )
  await db
    .insertInto('teams')
    .values([
      { id: 'tm_a', name: 'A', created_at: NOW },
      { id: 'tm_b', name: 'B', created_at: NOW },
    ])
    .execute()
  const user = async (id: string, team: string, role: 'admin' | 'user', permissions: string) =>
    db
      .insertInto('users')
      .values({
        id,
        team_id: team,
        email: `${id}@x.test`,
        name: id,
        role,
        password_hash: await passwordHash,
        permissions,
        token_version: 0,
        created_at: NOW,
      })
      .execute()
  await user('usr_admina', 'tm_a', 'admin', '{}')
  await user('usr_adminb', 'tm_b', 'admin', '{}')
  await user('usr_without', 'tm_a', 'user', matrix(withoutGrants))
  await user('usr_with', 'tm_a', 'user', matrix(withGrants))
  await user('usr_outside', 'tm_a', 'user', outside)
  const apiToken = (id: string, hash: string) => ({
    id,
    team_id: 'tm_a',
    created_by: 'usr_with',
    name: id,
    token_hash: hash,
    permissions: matrix(withGrants),
    created_at: NOW,
    expires_at: null,
    last_used_at: null,
  })
  await db
    .insertInto('api_tokens')
    .values([
      apiToken('tok_with', await hashApiToken('ferry_another')),
      apiToken('tok_machine', await hashApiToken(API_TOKEN)),
    ])
    .execute()
  for (const [table, rows] of [
    [
      'channels',
      [
        { id: 'ch_a', name: 'stable', description: '' },
        { id: 'ch_spare', name: 'spare', description: '' },
      ],
    ],
    [
      'platforms',
      [
        { id: 'pl_a', name: 'windows', updater: 'ferry' },
        { id: 'pl_spare', name: 'spare', updater: 'ferry' },
      ],
    ],
    [
      'archs',
      [
        { id: 'ar_a', name: 'x64' },
        { id: 'ar_spare', name: 'spare' },
      ],
    ],
  ] as const) {
    await db
      .insertInto(table)
      .values(rows.map((r) => ({ ...r, team_id: 'tm_a', created_at: NOW })) as never)
      .execute()
  }
  await db
    .insertInto('apps')
    .values([
      { slug: 'app-a', team_id: 'tm_a', name: 'A', description: '', private: 0, created_at: NOW, updated_at: NOW },
      { slug: 'app-p', team_id: 'tm_a', name: 'P', description: '', private: 1, created_at: NOW, updated_at: NOW },
    ])
    .execute()
  const hex = (n: number, c: string) => c.repeat(n)
  for (const [ver, app, arts] of [
    ['ver_a', 'app-a', ['art_a1', 'art_a2']],
    ['ver_p', 'app-p', ['art_p1']],
  ] as const) {
    await db
      .insertInto('versions')
      .values({
        id: ver,
        app_slug: app,
        version: '1.0.0',
        version_key: versionKey('1.0.0'),
        channel_id: 'ch_a',
        platform_id: 'pl_a',
        arch_id: 'ar_a',
        changelog: '',
        published: 1,
        critical: 0,
        intermediate: 0,
        rollout_percentage: 100,
        created_at: NOW,
        published_at: NOW,
      })
      .execute()
    for (const [i, art] of arts.entries()) {
      await m.blobs.put(art, new TextEncoder().encode(art))
      await db
        .insertInto('artifacts')
        .values({
          id: art,
          version_id: ver,
          file_name: i === 0 ? `${art}.exe` : `${art}-full.nupkg`,
          package_type: i === 0 ? 'exe' : 'nupkg',
          size: art.length,
          sha1: hex(40, 'a'),
          sha256: hex(64, 'b'),
          sha512: hex(128, 'c'),
          blob_key: art,
          created_at: NOW,
        })
        .execute()
    }
  }
  // Electron's signed test package (fixtures/msix/SOURCE.md), for the MSIX operations.
  const msix = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', 'msix', 'HelloMSIX_V1.msix')))
  await m.blobs.put('art_m1', msix)
  await db
    .insertInto('artifacts')
    .values({
      id: 'art_m1',
      version_id: 'ver_a',
      file_name: 'HelloMSIX.msix',
      package_type: 'msix',
      size: msix.length,
      sha1: hex(40, 'a'),
      sha256: hex(64, 'b'),
      sha512: hex(128, 'c'),
      blob_key: 'art_m1',
      created_at: NOW,
    })
    .execute()
  await db
    .insertInto('webhook_subscriptions')
    .values({
      id: 'whk_a',
      team_id: 'tm_a',
      url: 'https://hooks.example.org/ferry',
      description: '',
      events: '["version.paused"]',
      apps: null,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      enabled: 1,
      disabled_reason: null,
      failing_since: null,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute()
  await db
    .insertInto('update_rules')
    .values({
      id: 'rul_a',
      app_slug: 'app-a',
      // A cohort no check here sends: the update checks' answers stay as they are.
      kind: 'hold',
      cohort: 'other-org',
      version_range: null,
      version: null,
      criteria: null,
      reason: 'r',
      expires_at: null,
      created_at: NOW,
      created_by: 'usr_admina',
    })
    .execute()
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: 'dlv_a',
      subscription_id: 'whk_a',
      event_id: 'msg_a',
      event_type: 'version.paused',
      payload: '{}',
      status: 'failed',
      attempts: 15,
      next_attempt_at: null,
      lease_until: null,
      last_attempt_at: NOW,
      response_status: 500,
      error: 'HTTP 500',
      created_at: NOW,
    })
    .execute()
  // A .deb and an .rpm as the upload hook records them, for the repository operations.
  await db
    .insertInto('versions')
    .values({
      id: 'ver_l',
      app_slug: 'app-a',
      version: '0.9.0',
      version_key: versionKey('0.9.0'),
      channel_id: 'ch_a',
      platform_id: 'pl_a',
      arch_id: 'ar_a',
      changelog: '',
      published: 1,
      critical: 0,
      intermediate: 0,
      rollout_percentage: 100,
      created_at: NOW,
      published_at: NOW,
    })
    .execute()
  const rpmMeta = {
    name: 'pkg',
    epoch: 0,
    version: '1.0',
    release: '1',
    arch: 'noarch',
    summary: 's',
    description: 'd',
    url: '',
    license: 'MIT',
    vendor: '',
    group: '',
    buildHost: '',
    sourceRpm: '',
    packager: '',
    buildTime: 0,
    installedSize: 1,
    archiveSize: 1,
    headerStart: 0,
    headerEnd: 1,
    provides: [],
    requires: [],
    conflicts: [],
    obsoletes: [],
    files: [],
    changelog: [],
  }
  for (const [art, file, kind, arch, metadata] of [
    [
      'art_d1',
      'pkg_1.0_amd64.deb',
      'deb',
      'amd64',
      JSON.stringify([
        ['Package', 'pkg'],
        ['Version', '1.0'],
        ['Architecture', 'amd64'],
      ]),
    ],
    ['art_r1', 'pkg-1.0-1.noarch.rpm', 'rpm', 'noarch', JSON.stringify(rpmMeta)],
  ] as const) {
    await m.blobs.put(art, new TextEncoder().encode(art))
    await db
      .insertInto('artifacts')
      .values({
        id: art,
        version_id: 'ver_l',
        file_name: file,
        package_type: kind,
        size: art.length,
        sha1: hex(40, 'a'),
        sha256: hex(64, 'b'),
        sha512: hex(128, 'c'),
        blob_key: art,
        created_at: NOW,
      })
      .execute()
    await db
      .insertInto('linux_packages')
      .values({ artifact_id: art, version_id: 'ver_l', kind, name: 'pkg', arch, metadata })
      .execute()
  }
  const token = async (id: string, team: string) =>
    new SignJWT({ team, tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET))
  await db.insertInto('tuf_online_keys').values(TUF.onlineRow).execute()
  const tokens: Record<Role, string | undefined> = {
    anonymous: undefined,
    without: await token('usr_without', 'tm_a'),
    with: await token('usr_with', 'tm_a'),
    outside: await token('usr_outside', 'tm_a'),
    admin: await token('usr_admina', 'tm_a'),
    otherAdmin: await token('usr_adminb', 'tm_b'),
    token: API_TOKEN,
  }
  return { ...m, tokens }
}

/** A request that succeeds for a caller allowed to make it. */
const REQUESTS: Record<
  OperationId,
  { path: string; method?: string; body?: unknown; form?: () => FormData; headers?: Record<string, string>; ok: number }
> = {
  callMcp: {
    path: '/mcp',
    method: 'POST',
    headers: { accept: MCP_ACCEPT },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ok: 200,
  },
  signup: {
    path: '/v1/auth/signup',
    method: 'POST',
    body: { teamName: 'N', name: 'N', email: 'new@x.test', password: PASSWORD },
    ok: 201,
  },
  login: { path: '/v1/auth/login', method: 'POST', body: { email: 'usr_admina@x.test', password: PASSWORD }, ok: 200 },
  createApp: { path: '/v1/apps', method: 'POST', body: { slug: 'new-app', name: 'New' }, ok: 201 },
  listApps: { path: '/v1/apps', ok: 200 },
  listVersions: { path: '/v1/versions', ok: 200 },
  updateApp: { path: '/v1/apps/app-a', method: 'PATCH', body: { name: 'Renamed' }, ok: 200 },
  deleteApp: { path: '/v1/apps/app-a', method: 'DELETE', ok: 204 },
  searchAppVersions: { path: '/v1/apps/app-a/versions', ok: 200 },
  uploadVersion: {
    path: '/v1/apps/app-a/versions',
    method: 'POST',
    ok: 201,
    form: () =>
      uploadForm({ version: '1.1.0', channel: 'stable', platform: 'windows', arch: 'x64' }, [['new.exe', 'new']]),
  },
  updateVersion: { path: '/v1/apps/app-a/versions/ver_a', method: 'PATCH', body: { critical: true }, ok: 200 },
  deleteVersion: { path: '/v1/apps/app-a/versions/ver_a', method: 'DELETE', ok: 204 },
  deleteArtifact: { path: '/v1/apps/app-a/versions/ver_a/artifacts/art_a1', method: 'DELETE', ok: 204 },
  downloadArtifact: { path: '/v1/apps/app-p/versions/ver_p/artifacts/art_p1/download', ok: 200 },
  createChannel: { path: '/v1/channels', method: 'POST', body: { name: 'fresh' }, ok: 201 },
  listChannels: { path: '/v1/channels', ok: 200 },
  updateChannel: { path: '/v1/channels/ch_a', method: 'PATCH', body: { description: 'd' }, ok: 200 },
  deleteChannel: { path: '/v1/channels/ch_spare', method: 'DELETE', ok: 204 },
  createPlatform: { path: '/v1/platforms', method: 'POST', body: { name: 'fresh' }, ok: 201 },
  listPlatforms: { path: '/v1/platforms', ok: 200 },
  updatePlatform: { path: '/v1/platforms/pl_a', method: 'PATCH', body: { updater: 'tauri' }, ok: 200 },
  deletePlatform: { path: '/v1/platforms/pl_spare', method: 'DELETE', ok: 204 },
  createArch: { path: '/v1/archs', method: 'POST', body: { name: 'fresh' }, ok: 201 },
  listArchs: { path: '/v1/archs', ok: 200 },
  updateArch: { path: '/v1/archs/ar_a', method: 'PATCH', body: { name: 'amd64' }, ok: 200 },
  deleteArch: { path: '/v1/archs/ar_spare', method: 'DELETE', ok: 204 },
  createTeamUser: {
    path: '/v1/team/users',
    method: 'POST',
    body: { email: 'newbie@x.test', name: 'N', password: PASSWORD },
    ok: 201,
  },
  listTeamUsers: { path: '/v1/team/users', ok: 200 },
  updateTeamUser: { path: '/v1/team/users/usr_with', method: 'PATCH', body: { name: 'Renamed' }, ok: 200 },
  deleteTeamUser: { path: '/v1/team/users/usr_with', method: 'DELETE', ok: 204 },
  updateAdminPassword: {
    path: '/v1/team/admin',
    method: 'PATCH',
    body: { currentPassword: PASSWORD, newPassword: 'another-long-passphrase' },
    ok: 204,
  },
  createApiToken: { path: '/v1/team/tokens', method: 'POST', body: { name: 'ci' }, ok: 201 },
  listApiTokens: { path: '/v1/team/tokens', ok: 200 },
  revokeApiToken: { path: '/v1/team/tokens/tok_with', method: 'DELETE', ok: 204 },
  getHealth: { path: '/v1/health', ok: 200 },
  whoami: { path: '/v1/whoami', ok: 200 },
  checkForUpdate: { path: '/v1/apps/app-a/update?version=0.1.0&platform=windows&arch=x64', ok: 200 },
  getLatestBuild: { path: '/v1/apps/app-a/latest?packageType=exe&platform=windows&arch=x64', ok: 302 },
  getSquirrelReleases: { path: '/v1/apps/app-a/squirrel/stable/x64/RELEASES', ok: 200 },
  getSquirrelPackage: { path: '/v1/apps/app-a/squirrel/stable/x64/art_a2-full.nupkg', ok: 302 },
  getSquirrelMacUpdate: { path: '/v1/apps/app-a/squirrel-mac/stable/x64?version=0.1.0', ok: 204 },
  getElectronUpdaterFeed: { path: '/v1/apps/app-a/electron-updater/stable/windows/x64/0.1.0/latest.yml', ok: 200 },
  getTauriUpdate: { path: '/v1/apps/app-a/tauri/stable/windows/x86_64/0.1.0', ok: 204 },
  getElectronUpdaterFile: {
    path: '/v1/apps/app-a/electron-updater/stable/windows/x64/files/1.0.0/art_a1.exe',
    ok: 200,
  },
  getVelopackFile: { path: '/v1/apps/app-a/velopack/stable/windows/x64/releases.win.json?localVersion=0.1.0', ok: 200 },
  getElectronUpdaterCohortFeed: {
    path: '/v1/apps/app-a/cohorts/acme-corp/electron-updater/stable/windows/x64/0.1.0/latest.yml',
    ok: 200,
  },
  getSparkleCohortAppcast: {
    path: '/v1/apps/app-a/cohorts/acme-corp/sparkle/stable/windows/x64/appcast.xml?version=0.1.0',
    ok: 200,
  },
  getSparkleAppcast: { path: '/v1/apps/app-a/sparkle/stable/windows/x64/appcast.xml?version=0.1.0', ok: 200 },
  getMsixUpdate: { path: '/v1/apps/app-a/msix/stable/x64?version=0.1.0', ok: 200 },
  getMsixAppInstaller: { path: '/v1/apps/app-a/msix/stable/x64/app.appinstaller', ok: 200 },
  getMsixPackage: { path: '/v1/apps/app-a/msix/files/ver_a/art_m1/HelloMSIX.msix', ok: 200 },
  listAuditEntries: { path: '/v1/audit?action=version.', ok: 200 },
  getTelemetry: { path: '/v1/telemetry?from=2025-01-01&to=2025-01-31', ok: 200 },
  getRepositoryKey: { path: '/v1/apps/app-a/repository-key.asc', ok: 200 },
  getAptRelease: { path: '/v1/apps/app-a/apt/dists/stable/InRelease', ok: 200 },
  getAptPackages: { path: '/v1/apps/app-a/apt/dists/stable/main/binary-amd64/Packages.gz', ok: 200 },
  // arm64's index is empty (the one package is amd64): its SHA-256 is that of no bytes.
  getAptIndexByHash: {
    path: '/v1/apps/app-a/apt/dists/stable/main/binary-arm64/by-hash/SHA256/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ok: 200,
  },
  getAptPackageFile: { path: '/v1/apps/app-a/apt/pool/art_d1/pkg_1.0_amd64.deb', ok: 200 },
  getRpmMetadata: { path: '/v1/apps/app-a/rpm/stable/repodata/repomd.xml.asc', ok: 200 },
  getRpmPackageFile: { path: '/v1/apps/app-a/rpm/stable/packages/art_r1/pkg-1.0-1.noarch.rpm', ok: 200 },
  pauseVersion: { path: '/v1/apps/app-a/versions/ver_a/pause', method: 'POST', body: { reason: 'r' }, ok: 200 },
  resumeVersion: { path: '/v1/apps/app-a/versions/ver_a/resume', method: 'POST', ok: 200 },
  pullVersion: { path: '/v1/apps/app-a/versions/ver_a/pull', method: 'POST', body: {}, ok: 200 },
  explainUpdate: {
    path: '/v1/apps/app-a/update/explain?version=0.1.0&platform=windows&arch=x64&deviceId=device-0001',
    ok: 200,
  },
  getUpdateKeyDevices: { path: '/v1/apps/app-a/update-keys', ok: 200 },
  getTufMetadata: { path: '/v1/apps/app-a/tuf/online-key.json', ok: 200 },
  publishTufMetadata: { path: '/v1/apps/app-a/tuf/root.json', method: 'POST', body: TUF.root, ok: 200 },
  listRules: { path: '/v1/apps/app-a/rules', ok: 200 },
  createRule: {
    path: '/v1/apps/app-a/rules',
    method: 'POST',
    body: { kind: 'pin', cohort: 'acme-corp', range: '1.x' },
    ok: 201,
  },
  deleteRule: { path: '/v1/apps/app-a/rules/rul_a', method: 'DELETE', ok: 204 },
  getVersionAdoption: { path: '/v1/apps/app-a/versions/ver_a/adoption?from=2025-01-01&to=2025-01-31', ok: 200 },

  createWebhook: {
    path: '/v1/webhooks',
    method: 'POST',
    body: { url: 'https://hooks.example.org/new', events: ['version.published'] },
    ok: 201,
  },
  listWebhooks: { path: '/v1/webhooks', ok: 200 },
  getWebhook: { path: '/v1/webhooks/whk_a', ok: 200 },
  updateWebhook: { path: '/v1/webhooks/whk_a', method: 'PATCH', body: { enabled: false }, ok: 200 },
  deleteWebhook: { path: '/v1/webhooks/whk_a', method: 'DELETE', ok: 204 },
  listWebhookDeliveries: { path: '/v1/webhooks/whk_a/deliveries', ok: 200 },
  redeliverWebhook: { path: '/v1/webhooks/whk_a/deliveries/dlv_a/redeliver', method: 'POST', ok: 202 },
  testWebhook: { path: '/v1/webhooks/whk_a/test', method: 'POST', ok: 202 },
  reportUpdateOutcome: {
    path: '/v1/apps/app-a/health-reports',
    method: 'POST',
    ok: 202,
    body: {
      deviceId: 'device-0001',
      version: '1.0.0',
      channel: 'stable',
      platform: 'windows',
      arch: 'x64',
      outcome: 'installed',
    },
  },
}

/**
 * What /mcp offers as a tool to a caller whose token may call it (a 404 is a resource outside their
 * team, not a missing grant): every operation but sign-up, login, device reports, uploads and /mcp.
 */
const offeredKind = (op: OperationSpec) =>
  op.body?.contentType !== 'multipart/form-data' &&
  !(op.method !== 'get' && (op.permission === 'public' || op.permission === 'signupKey'))

async function mcpToolNames(
  fetch: (path: string, init?: RequestInit) => Promise<Response>,
  token: string | undefined,
): Promise<string[]> {
  const res = await fetch('/mcp', {
    method: 'POST',
    headers: {
      accept: MCP_ACCEPT,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  assert.equal(res.status, 200, await res.clone().text())
  const body = (await res.json()) as { result: { tools: Array<{ name: string }> } }
  return body.result.tools.map((t) => t.name)
}

/** Creating needs no existing resource: allowed lists don't apply, another team creates in its own team. */
const CREATES = new Set<OperationId>([
  'createApp',
  'createChannel',
  'createPlatform',
  'createArch',
  'createTeamUser',
  'listTeamUsers',
  'updateAdminPassword',
  'createWebhook',
  'listWebhooks',
])

function expected(op: OperationSpec, role: Role, ok: number): number {
  const p = op.permission
  if (p === 'public' || p === 'signupKey') return ok
  if (role === 'anonymous') return 401
  // A token acts as the user `with` (whose grants it holds), never manages tokens.
  if (role === 'token') return TOKEN_OPS.has(op.operationId) ? 403 : expected(op, 'with', ok)
  if (op.operationId === 'revokeApiToken') return role === 'with' || role === 'admin' ? ok : 404
  if (p === 'authenticated') {
    if (
      ['searchAppVersions', 'explainUpdate', 'getUpdateKeyDevices', 'getVersionAdoption'].includes(op.operationId) &&
      (role === 'outside' || role === 'otherAdmin')
    )
      return 404
    return ok
  }
  if (p === 'admin') {
    if (role === 'admin') return ok
    if (role === 'otherAdmin') return CREATES.has(op.operationId) ? ok : 404
    return 403
  }
  // A matrix permission.
  if (role === 'without') return 403
  if (role === 'outside') return op.operationId === 'createApp' || !CREATES.has(op.operationId) ? 403 : ok
  if (role === 'otherAdmin') return CREATES.has(op.operationId) ? ok : 404
  return ok
}

test('every operation is in the permission table', () => {
  assert.deepEqual(operations.map((o) => o.operationId).sort(), Object.keys(REQUESTS).sort())
})

for (const op of operations) {
  test(`permissions: ${op.operationId} (${op.permission})`, async () => {
    const spec = REQUESTS[op.operationId]
    for (const role of ROLES) {
      const fx = await fixture(op)
      const headers: Record<string, string> = { ...spec.headers }
      const token = fx.tokens[role]
      if (token) headers.authorization = `Bearer ${token}`
      if (op.permission === 'signupKey') headers['x-ferry-signup-key'] = SIGNUP_KEY
      let body: BodyInit | undefined
      if (spec.body !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(spec.body)
      } else if (spec.form) body = spec.form()
      // Listed before the call: a password change ends the admin's session.
      const tools = role === 'outside' ? undefined : await mcpToolNames(fx.fetch, token)
      const res = await fx.fetch(spec.path, { method: spec.method ?? 'GET', headers, ...(body ? { body } : {}) })
      const want = expected(op, role, spec.ok)
      assert.equal(
        res.status,
        want,
        `${op.operationId} as ${role}: expected ${want}, got ${res.status}: ${await res.clone().text()}`,
      )
      await expectSpec(op.operationId, res)
      if (tools) {
        assert.equal(
          tools.includes(op.operationId),
          role !== 'anonymous' && offeredKind(op) && (want === spec.ok || want === 404),
          `${op.operationId} as ${role}: /mcp ${tools.includes(op.operationId) ? 'offers' : 'does not offer'} it as a tool, but the matrix answers ${want}`,
        )
      }
    }
  })
}

test('signup without the key is refused', async () => {
  const m = await memoryApp()
  const res = await m.fetch('/v1/auth/signup', jsonBody(REQUESTS.signup.body))
  await expectSpec('signup', res, 401)
})

test('the audit log per role: the admin sees the team, a user the apps they may read and their own entries', async () => {
  const op = operations.find((o) => o.operationId === 'listAuditEntries')
  assert.ok(op)
  const fx = await fixture(op)
  const entry = (id: string, team: string, actor: string, app: string | null) => ({
    id,
    team_id: team,
    at: `2025-01-01T00:00:0${id.slice(-1)}.000Z`,
    actor_type: 'user' as const,
    actor_id: actor,
    actor_name: actor,
    actor_email: `${actor}@x.test`,
    actor_user_id: actor,
    creator_email: null,
    operation_id: 'updateApp',
    action: 'app.update',
    target_type: app ? 'app' : 'team',
    target_id: app ?? team,
    app_slug: app,
    changes: '{}',
    address: null,
  })
  await fx.db
    .insertInto('audit_log')
    .values([
      entry('aud_e1', 'tm_a', 'usr_admina', 'app-a'),
      entry('aud_e2', 'tm_a', 'usr_admina', 'app-p'),
      entry('aud_e3', 'tm_a', 'usr_admina', null),
      entry('aud_e4', 'tm_a', 'usr_with', null),
      entry('aud_e5', 'tm_a', 'usr_outside', null),
      entry('aud_e6', 'tm_b', 'usr_adminb', null),
    ])
    .execute()
  const want: Record<Role, string[] | 401> = {
    anonymous: 401,
    admin: ['aud_e5', 'aud_e4', 'aud_e3', 'aud_e2', 'aud_e1'],
    otherAdmin: ['aud_e6'],
    // No app grant with an allowed list: every app of the team is readable.
    with: ['aud_e4', 'aud_e2', 'aud_e1'],
    token: ['aud_e4', 'aud_e2', 'aud_e1'],
    without: ['aud_e2', 'aud_e1'],
    // App grants only for `elsewhere`: none of the team's apps, but their own entry.
    outside: ['aud_e5'],
  }
  for (const role of ROLES) {
    const token = fx.tokens[role]
    const res = await fx.fetch('/v1/audit', token ? { headers: { authorization: `Bearer ${token}` } } : {})
    const expectedIds = want[role]
    if (expectedIds === 401) {
      assert.equal(res.status, 401)
      continue
    }
    const body = (await expectSpec('listAuditEntries', res, 200)) as { items: Array<{ id: string }> }
    assert.deepEqual(
      body.items.map((e) => e.id),
      expectedIds,
      `what ${role} sees`,
    )
  }
})
