/**
 * @module Demo data for the browser sandbox and the benchmark, created through the API itself
 * (so it is exactly what real requests would create).
 */

export const DEMO_LOGIN = { email: 'demo@ferry.test', password: 'ferry-demo-password' } as const
export const DEMO_USER = { email: 'grace@ferry.test', password: 'grace-demo-password' } as const

type Fetch = (path: string, init?: RequestInit) => Promise<Response>

export interface DemoData {
  token: string
  apps: { public: string; private: string }
}

interface VersionSeed {
  app: string
  version: string
  channel: string
  platform: string
  arch: string
  files: string[]
  published?: boolean
  critical?: boolean
  intermediate?: boolean
  rolloutPercentage?: number
  changelog?: string
}

const VERSIONS: VersionSeed[] = [
  {
    app: 'harbor-notes',
    version: '1.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.0.0.exe', 'harbor-notes-1.0.0-full.nupkg'],
    changelog: '- First release',
  },
  {
    app: 'harbor-notes',
    version: '1.1.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.1.0.exe', 'harbor-notes-1.1.0-full.nupkg'],
    intermediate: true,
    changelog: '- New storage format (required before 1.2.0)',
  },
  {
    app: 'harbor-notes',
    version: '1.2.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.2.0.exe', 'harbor-notes-1.2.0-delta.nupkg', 'harbor-notes-1.2.0-full.nupkg'],
    critical: true,
    changelog: '- Security fix for shared notes',
  },
  {
    app: 'harbor-notes',
    version: '1.3.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.3.0.exe'],
    published: false,
    changelog: '- Tags (draft)',
  },
  {
    app: 'harbor-notes',
    version: '1.3.0-beta.1',
    channel: 'beta',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.3.0-beta.1.exe'],
    rolloutPercentage: 50,
    changelog: '- Tags for notes',
  },
  {
    app: 'harbor-notes',
    version: '1.2.0',
    channel: 'stable',
    platform: 'darwin',
    arch: 'universal',
    files: ['HarborNotes-1.2.0-universal.dmg', 'HarborNotes-1.2.0-universal-mac.zip'],
  },
  {
    app: 'harbor-notes',
    version: '1.2.0',
    channel: 'stable',
    platform: 'linux',
    arch: 'x64',
    files: ['HarborNotes-1.2.0.AppImage', 'harbor-notes_1.2.0_amd64.deb'],
  },
  {
    app: 'lighthouse-admin',
    version: '2.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['LighthouseAdmin-2.0.0.msi'],
  },
  // A Tauri app: each updater bundle uploaded with the .sig Tauri's bundler writes next to it.
  {
    app: 'tidewatch',
    version: '0.9.0',
    channel: 'stable',
    platform: 'darwin',
    arch: 'arm64',
    files: ['Tidewatch.app.tar.gz', 'Tidewatch.app.tar.gz.sig'],
    changelog: '- First build',
  },
  {
    app: 'tidewatch',
    version: '1.0.0',
    channel: 'stable',
    platform: 'darwin',
    arch: 'arm64',
    files: ['Tidewatch_1.0.0_aarch64.dmg', 'Tidewatch.app.tar.gz', 'Tidewatch.app.tar.gz.sig'],
    changelog: '- Tide tables offline',
  },
  {
    app: 'tidewatch',
    version: '1.0.0',
    channel: 'stable',
    platform: 'linux',
    arch: 'x64',
    files: ['tidewatch_1.0.0_amd64.AppImage', 'tidewatch_1.0.0_amd64.AppImage.sig'],
    changelog: '- Tide tables offline',
  },
  {
    app: 'tidewatch',
    version: '1.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['Tidewatch_1.0.0_x64-setup.exe', 'Tidewatch_1.0.0_x64-setup.exe.sig'],
    changelog: '- Tide tables offline',
  },
  // Rolled out by a ramp (see RAMPS), and paused by its health reports (see PAUSED).
  {
    app: 'harbor-notes',
    version: '1.2.1',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    files: ['HarborNotes-Setup-1.2.1.exe', 'harbor-notes-1.2.1-full.nupkg'],
    changelog: '- Faster search',
  },
  {
    app: 'tidewatch',
    version: '1.1.0',
    channel: 'stable',
    platform: 'darwin',
    arch: 'arm64',
    files: ['Tidewatch_1.1.0_aarch64.dmg', 'Tidewatch.app.tar.gz', 'Tidewatch.app.tar.gz.sig'],
    changelog: '- Moon phases',
  },
]

/** A ramp in progress: 5 % now, 25 % after an hour, 50 % a day later, everyone a day after that. */
const RAMP = {
  app: 'harbor-notes',
  version: '1.2.1',
  platform: 'windows',
  steps: [
    { percentage: 5, afterMinutes: 0 },
    { percentage: 25, afterMinutes: 60 },
    { percentage: 50, afterMinutes: 1440 },
    { percentage: 100, afterMinutes: 1440 },
  ],
}

/** A version its health reports paused: 3 of 5 offered devices failed, its policy allows 20 % once 5 reported. */
const PAUSED = {
  app: 'tidewatch',
  version: '1.1.0',
  platform: 'darwin',
  arch: 'arm64',
  outcomes: ['installed', 'failed', 'installed', 'failed', 'failed'] as const,
}

/** Demo file content; a signature file holds base64 text, as minisign signatures do. */
function demoContent(file: string): string {
  return file.endsWith('.sig')
    ? `${btoa(`untrusted comment: demo signature of ${file.slice(0, -4)}`)}\n`
    : `demo artifact ${file}\n`
}

async function call(fetch: Fetch, path: string, init: RequestInit, expected: number): Promise<unknown> {
  const res = await fetch(path, init)
  if (res.status !== expected)
    throw new Error(`seeding failed: ${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`)
  return res.status === 204 ? undefined : res.json()
}

/** Creates the demo team, catalogs, apps, versions and a team user. */
export async function seedDemo(fetch: Fetch, signupKey: string): Promise<DemoData> {
  const session = (await call(
    fetch,
    '/v1/auth/signup',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-signup-key': signupKey },
      body: JSON.stringify({ teamName: 'Harbor Demo', name: 'Demo Admin', ...DEMO_LOGIN }),
    },
    201,
  )) as { token: string }
  const auth = { authorization: `Bearer ${session.token}` }
  const post = (path: string, body: unknown) =>
    call(
      fetch,
      path,
      { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) },
      201,
    )

  for (const c of [
    { name: 'stable', description: 'What most users run.' },
    { name: 'beta', description: 'Early builds.' },
  ])
    await post('/v1/channels', c)
  for (const p of [
    { name: 'windows', updater: 'squirrel-windows' },
    { name: 'darwin', updater: 'electron-builtin' },
    { name: 'linux', updater: 'electron-updater' },
  ])
    await post('/v1/platforms', p)
  for (const name of ['x64', 'arm64', 'universal']) await post('/v1/archs', { name })
  await post('/v1/apps', {
    slug: 'harbor-notes',
    name: 'Harbor Notes',
    description: 'A note-taking app that syncs over your own server.',
  })
  await post('/v1/apps', {
    slug: 'lighthouse-admin',
    name: 'Lighthouse Admin',
    description: 'Internal fleet console.',
    private: true,
  })
  await post('/v1/apps', { slug: 'tidewatch', name: 'Tidewatch', description: 'Tide tables for sailors (Tauri).' })

  for (const v of VERSIONS) {
    const form = new FormData()
    form.set('version', v.version)
    form.set('channel', v.channel)
    form.set('platform', v.platform)
    form.set('arch', v.arch)
    form.set('changelog', v.changelog ?? '')
    form.set('published', String(v.published ?? true))
    form.set('critical', String(v.critical ?? false))
    form.set('intermediate', String(v.intermediate ?? false))
    form.set('rolloutPercentage', String(v.rolloutPercentage ?? 100))
    for (const file of v.files) form.append('files', new File([demoContent(file)], file))
    const created = (await call(
      fetch,
      `/v1/apps/${v.app}/versions`,
      { method: 'POST', headers: auth, body: form },
      201,
    )) as { id: string }
    const edit = (body: unknown) =>
      call(
        fetch,
        `/v1/apps/${v.app}/versions/${created.id}`,
        { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) },
        200,
      )
    if (v.app === RAMP.app && v.version === RAMP.version && v.platform === RAMP.platform)
      await edit({ ramp: { steps: RAMP.steps } })
    if (v.app === PAUSED.app && v.version === PAUSED.version && v.platform === PAUSED.platform) {
      // The sandbox has no client addresses: every device counts as one address here.
      await edit({
        healthPolicy: {
          maxFailureRatio: 0.2,
          minReports: PAUSED.outcomes.length,
          minAddresses: 1,
          maxReportsPerAddress: PAUSED.outcomes.length,
        },
      })
      for (const [i, outcome] of PAUSED.outcomes.entries()) {
        const deviceId = `demo-mac-${String(i + 1).padStart(2, '0')}`
        // Reports count only from devices an update check offered the version.
        await call(
          fetch,
          `/v1/apps/${v.app}/update?version=1.0.0&channel=${v.channel}&platform=${v.platform}&arch=${PAUSED.arch}&format=ferry`,
          {
            headers: { 'x-ferry-device-id': deviceId },
          },
          200,
        )
        await call(
          fetch,
          `/v1/apps/${v.app}/health-reports`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              deviceId,
              version: v.version,
              channel: v.channel,
              platform: v.platform,
              arch: PAUSED.arch,
              outcome,
              fromVersion: '1.0.0',
              ...(outcome === 'failed' ? { reason: 'Crash on launch: tide cache migration' } : {}),
            }),
          },
          202,
        )
      }
    }
  }
  await post('/v1/team/users', {
    ...DEMO_USER,
    name: 'Grace Demo',
    permissions: { apps: { upload: { enabled: true, allowed: ['harbor-notes'] }, download: { enabled: true } } },
  })
  return { token: session.token, apps: { public: 'harbor-notes', private: 'lighthouse-admin' } }
}

/**
 * Two weeks of update checks from a dozen simulated Harbor Notes installs on Windows, so the
 * telemetry report has something to show: each device moves from 1.0.0 to 1.1.0 to 1.2.0 on its
 * own day. The checks go through the public update check like real ones; `setDay` moves the
 * app's clock to the day a check is counted on.
 */
export async function seedDemoTraffic(
  fetch: Fetch,
  setDay: (day: Date | undefined) => void,
  today = new Date(),
): Promise<void> {
  const DAYS = 14
  const DEVICES = 12
  try {
    for (let d = 0; d < DAYS; d++) {
      setDay(new Date(today.getTime() - (DAYS - 1 - d) * 86_400_000))
      for (let i = 0; i < DEVICES; i++) {
        const version = d < 2 + (i % 5) ? '1.0.0' : d < 6 + (i % 7) ? '1.1.0' : '1.2.0'
        const res = await fetch(
          `/v1/apps/harbor-notes/update?version=${version}&channel=stable&platform=windows&arch=x64&format=ferry`,
          {
            headers: { 'x-ferry-device-id': `demo-device-${String(i + 1).padStart(2, '0')}` },
          },
        )
        if (res.status !== 200 && res.status !== 204)
          throw new Error(`seeding traffic failed: ${res.status} ${await res.text()}`)
      }
    }
  } finally {
    setDay(undefined)
  }
}
