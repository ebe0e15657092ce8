/**
 * Updater key rotation: an app holds several Tauri (minisign, made by the Tauri CLI) and Sparkle
 * (Ed25519) keys with roles. Uploads signed by the current or the next key are stored; a retired
 * key or a stranger's is refused with a 400 naming the signature file. Key lists are checked.
 */
import assert from 'node:assert/strict'
import { generateKeyPairSync, sign } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { bearer, expectProblem, expectSpec, jsonBody, uploadForm } from './helpers.ts'
import { tauriCli, withTauriApp } from './tauri-signer.ts'

const PASSWORD = 'rotation-test-passphrase'
const tauri = tauriCli(PASSWORD)

const team = withTauriApp('rotating', 'Rotating', 'rotate@team.test')
const { f } = team
let work: string
const pub: Record<string, string> = {}
const bundle = 'Rotating.app.tar.gz'
const bundleBytes = 'Rotating updater bundle\n'

async function tauriSig(key: string): Promise<string> {
  const file = join(work, `${key}-${bundle}`)
  writeFileSync(file, bundleBytes)
  await tauri(['signer', 'sign', '-f', join(work, `${key}.key`), file])
  return readFileSync(`${file}.sig`, 'utf8')
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'ferry-rotation-'))
  for (const name of ['old', 'new', 'stranger']) {
    await tauri(['signer', 'generate', '--ci', '-w', join(work, `${name}.key`), '-p', PASSWORD])
    pub[name] = readFileSync(join(work, `${name}.key.pub`), 'utf8').trim()
  }
})
after(() => rmSync(work, { recursive: true, force: true }))

const patch = (body: unknown) => f('/v1/apps/rotating', { ...jsonBody(body, team.token), method: 'PATCH' })
const upload = (version: string, files: Array<[string, string | Uint8Array]>) =>
  f(
    '/v1/apps/rotating/versions',
    bearer(team.token, {
      method: 'POST',
      body: uploadForm({ version, channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true' }, files),
    }),
  )

async function refused(version: string, files: Array<[string, string | Uint8Array]>, reason: RegExp) {
  const problem = await expectProblem(await upload(version, files), 400, 'validation', 'files')
  assert.match(problem.errors?.map((e) => e.message).join('\n') ?? '', reason)
}

test('Tauri: the current and the next key are accepted; after the rotation the retired one is not', async () => {
  const app = (await expectSpec(
    'updateApp',
    await patch({
      tauriPublicKeys: [
        { key: pub.old, role: 'current' },
        { key: pub.new, role: 'next' },
      ],
    }),
    200,
  )) as { tauriPublicKey?: string; tauriPublicKeys?: unknown }
  assert.equal(app.tauriPublicKey, pub.old)
  assert.deepEqual(app.tauriPublicKeys, [
    { key: pub.old, role: 'current' },
    { key: pub.new, role: 'next' },
  ])
  await expectSpec(
    'uploadVersion',
    await upload('1.0.0', [
      [bundle, bundleBytes],
      [`${bundle}.sig`, await tauriSig('old')],
    ]),
    201,
  )
  await expectSpec(
    'uploadVersion',
    await upload('1.1.0', [
      [bundle, bundleBytes],
      [`${bundle}.sig`, await tauriSig('new')],
    ]),
    201,
  )
  await refused(
    '1.2.0',
    [
      [bundle, bundleBytes],
      [`${bundle}.sig`, await tauriSig('stranger')],
    ],
    /another key than the app's current and next Tauri keys/,
  )

  const rotated = (await expectSpec(
    'updateApp',
    await patch({
      tauriPublicKeys: [
        { key: pub.new, role: 'current' },
        { key: pub.old, role: 'retired' },
      ],
    }),
    200,
  )) as { tauriPublicKey?: string }
  assert.equal(rotated.tauriPublicKey, pub.new)
  await refused(
    '1.3.0',
    [
      [bundle, bundleBytes],
      [`${bundle}.sig`, await tauriSig('old')],
    ],
    /another key than the app's tauriPublicKey/,
  )
  await expectSpec(
    'uploadVersion',
    await upload('1.3.0', [
      [bundle, bundleBytes],
      [`${bundle}.sig`, await tauriSig('new')],
    ]),
    201,
  )
  // Setting the single key keeps the others; [] removes every key.
  const single = (await expectSpec('updateApp', await patch({ tauriPublicKey: pub.new }), 200)) as {
    tauriPublicKeys?: unknown
  }
  assert.deepEqual(single.tauriPublicKeys, [
    { key: pub.new, role: 'current' },
    { key: pub.old, role: 'retired' },
  ])
  const none = (await expectSpec('updateApp', await patch({ tauriPublicKeys: [] }), 200)) as {
    tauriPublicKey?: string
    tauriPublicKeys?: unknown
  }
  assert.equal(none.tauriPublicKey, undefined)
  assert.equal(none.tauriPublicKeys, undefined)
})

test('devices per key: update checks counted by the key that signed the version each device runs', async () => {
  await expectSpec(
    'updateApp',
    await patch({
      tauriPublicKeys: [
        { key: pub.new, role: 'current' },
        { key: pub.old, role: 'retired' },
      ],
    }),
    200,
  )
  const check = (version: string, device: string) =>
    f(`/v1/apps/rotating/update?version=${version}&platform=darwin&arch=arm64`, {
      headers: { 'x-ferry-device-id': device },
    })
  // 1.0.0 was signed by the old key, 1.1.0 and 1.3.0 by the new one. The checks' UTC day lies
  // between the days read before and after them (they differ only across midnight).
  const dayBefore = new Date().toISOString().slice(0, 10)
  for (const [version, device] of [
    ['1.0.0', 'device-rot-0001'],
    ['1.1.0', 'device-rot-0002'],
    ['1.3.0', 'device-rot-0003'],
    ['1.3.0', 'device-rot-0004'],
  ] as const) {
    assert.ok([200, 204].includes((await check(version, device)).status))
  }
  const counts = (await expectSpec(
    'getUpdateKeyDevices',
    await f('/v1/apps/rotating/update-keys', bearer(team.token)),
    200,
  )) as { day: string | null; devices: number; keys: Array<{ updater: string; role: string; devices: number }> }
  assert.ok(
    [dayBefore, new Date().toISOString().slice(0, 10)].includes(String(counts.day)),
    `the checks' day, not ${counts.day}`,
  )
  assert.equal(counts.devices, 4)
  assert.deepEqual(
    counts.keys.map((k) => [k.updater, k.role, k.devices]),
    [
      ['tauri', 'current', 3],
      ['tauri', 'retired', 1],
    ],
  )
  await expectSpec('getUpdateKeyDevices', await f('/v1/apps/rotating/update-keys'), 401)
  await expectSpec('getUpdateKeyDevices', await f('/v1/apps/nope-app/update-keys', bearer(team.token)), 404)
})

test('Sparkle: an .edsig by the next key is accepted, by another key refused', async () => {
  const [current, next, stranger] = [
    generateKeyPairSync('ed25519'),
    generateKeyPairSync('ed25519'),
    generateKeyPairSync('ed25519'),
  ]
  const raw = (k: typeof current) =>
    Buffer.from(k.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('base64')
  await expectSpec(
    'updateApp',
    await patch({
      sparklePublicKeys: [
        { key: raw(current), role: 'current' },
        { key: raw(next), role: 'next' },
      ],
    }),
    200,
  )
  const zip = new TextEncoder().encode('Rotating 2.0.0 archive\n')
  const edsig = (k: typeof current) =>
    `sparkle:edSignature="${sign(null, zip, k.privateKey).toString('base64')}" length="${zip.length}"\n`
  await expectSpec(
    'uploadVersion',
    await upload('2.0.0', [
      ['Rotating.zip', zip],
      ['Rotating.zip.edsig', edsig(next)],
    ]),
    201,
  )
  await refused(
    '2.1.0',
    [
      ['Rotating.zip', zip],
      ['Rotating.zip.edsig', edsig(stranger)],
    ],
    /"Rotating\.zip\.edsig" of "Rotating\.zip" does not verify with the app's current or next Sparkle key/,
  )
})

test('a key list is checked: readable keys, one current, one next at most, not with the single key', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [
      { tauriPublicKeys: [{ key: 'A'.repeat(56), role: 'current' }] },
      '/tauriPublicKeys/0/key',
      /is not a minisign public key/,
    ],
    [
      {
        tauriPublicKeys: [
          { key: pub.old, role: 'current' },
          { key: pub.new, role: 'current' },
        ],
      },
      '/tauriPublicKeys',
      /more than one current key/,
    ],
    [{ tauriPublicKeys: [{ key: pub.new, role: 'next' }] }, '/tauriPublicKeys', /has no current key/],
    [
      {
        tauriPublicKeys: [
          { key: pub.old, role: 'current' },
          { key: pub.old, role: 'retired' },
        ],
      },
      '/tauriPublicKeys/1/key',
      /repeats key 0/,
    ],
    [
      { tauriPublicKey: pub.old, tauriPublicKeys: [{ key: pub.old, role: 'current' }] },
      '/tauriPublicKeys',
      /must not be sent with tauriPublicKey/,
    ],
  ]
  for (const [body, pointer, reason] of cases) {
    const problem = await expectProblem(await patch(body), 400, 'validation', pointer)
    assert.match(problem.errors?.find((e) => e.pointer === pointer)?.message ?? '', reason, JSON.stringify(body))
  }
})

test('a device is offered only releases signed by a key its version trusts: the old build gets the bridge, the bridge the new-key release', async () => {
  await patch({
    tauriPublicKeys: [
      { key: pub.old, role: 'current' },
      { key: pub.new, role: 'next' },
    ],
  })
  const put = (version: string, sig: string, fields: Record<string, string> = {}) =>
    f(
      '/v1/apps/rotating/versions',
      bearer(team.token, {
        method: 'POST',
        body: uploadForm(
          { version, channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true', ...fields },
          [
            [bundle, bundleBytes],
            [`${bundle}.sig`, sig],
          ],
        ),
      }),
    )
  const oldSig = await tauriSig('old')
  // 3.0.0 trusts only the old key (the default: the key it is signed with; an empty field, as a
  // form sends one left blank, is the default too); 3.1.0, the bridge, trusts both.
  await expectSpec('uploadVersion', await put('3.0.0', oldSig, { trustsKeys: '' }), 201)
  const unknown = await expectProblem(
    await put('3.1.0', oldSig, { trustsKeys: `${pub.old}, ${pub.stranger}` }),
    400,
    'validation',
    'trustsKeys',
  )
  assert.match(unknown.errors?.[0]?.message ?? '', /key 1 \(.*\) is not one of the app's Tauri or Sparkle public keys/)
  await expectSpec('uploadVersion', await put('3.1.0', oldSig, { trustsKeys: `${pub.old}\n${pub.new}` }), 201)
  await patch({
    tauriPublicKeys: [
      { key: pub.new, role: 'current' },
      { key: pub.old, role: 'retired' },
    ],
  })
  await expectSpec('uploadVersion', await put('3.2.0', await tauriSig('new')), 201)

  const offered = async (version: string) => {
    const res = await f(`/v1/apps/rotating/update?version=${version}&platform=darwin&arch=arm64`, {
      headers: { 'x-ferry-device-id': 'device-rot-0100' },
    })
    return res.status === 204 ? null : ((await res.json()) as { version: string }).version
  }
  assert.equal(await offered('3.0.0'), '3.1.0')
  assert.equal(await offered('3.1.0'), '3.2.0')
  // A version Ferry does not know: its trusted keys are unknown, so the newest release is offered as before.
  assert.equal(await offered('2.9.0'), '3.2.0')

  const explained = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/rotating/update/explain?version=3.0.0&channel=stable&platform=darwin&arch=arm64&deviceId=device-rot-0100',
      bearer(team.token),
    ),
    200,
  )) as {
    offered: string | null
    keyHold?: { version: string; signedBy: string; bridge: string | null; reason: string }
    versions: Array<{ version: string; rule: string; reason: string }>
  }
  assert.equal(explained.offered, '3.1.0')
  assert.deepEqual(
    { ...explained.keyHold, reason: undefined },
    { version: '3.2.0', signedBy: pub.new, bridge: '3.1.0', reason: undefined },
  )
  assert.match(
    explained.keyHold?.reason ?? '',
    /^3\.2\.0 is signed by key .+, which 3\.0\.0 does not trust; offering the bridge 3\.1\.0\.$/,
  )
  assert.equal(explained.versions.find((v) => v.version === '3.2.0')?.reason, explained.keyHold?.reason)
  const fromBridge = (await expectSpec(
    'explainUpdate',
    await f(
      '/v1/apps/rotating/update/explain?version=3.1.0&channel=stable&platform=darwin&arch=arm64&deviceId=device-rot-0100',
      bearer(team.token),
    ),
    200,
  )) as { offered: string | null; keyHold?: unknown }
  assert.equal(fromBridge.offered, '3.2.0')
  assert.equal(fromBridge.keyHold, undefined)
})

test('far behind during a key rotation (more releases above than one query reads): the old build still gets the bridge, the bridge the newest release', async () => {
  const app = 'far-rotating'
  assert.equal((await f('/v1/apps', jsonBody({ slug: app, name: 'Far Rotating' }, team.token))).status, 201)
  const keys = [
    { key: pub.old, role: 'current' },
    { key: pub.new, role: 'next' },
  ]
  await expectSpec(
    'updateApp',
    await f(`/v1/apps/${app}`, { ...jsonBody({ tauriPublicKeys: keys }, team.token), method: 'PATCH' }),
    200,
  )
  const [oldSig, newSig] = [await tauriSig('old'), await tauriSig('new')]
  const put = async (version: string, sig: string, fields: Record<string, string> = {}) => {
    const form = uploadForm(
      { version, channel: 'stable', platform: 'darwin', arch: 'arm64', published: 'true', ...fields },
      [
        [bundle, bundleBytes],
        [`${bundle}.sig`, sig],
      ],
    )
    await expectSpec(
      'uploadVersion',
      await f(`/v1/apps/${app}/versions`, bearer(team.token, { method: 'POST', body: form })),
      201,
    )
  }
  await put('1.0.0', oldSig)
  await put('1.0.1', oldSig, { critical: 'true' })
  // The bridge: signed by the old key, trusts both. Not intermediate, so nothing but the keys
  // leads a 1.0.x device to it.
  await put('1.1.0', oldSig, { trustsKeys: `${pub.old} ${pub.new}` })
  for (let minor = 2; minor <= 71; minor++)
    await put(`1.${minor}.0`, newSig, minor === 40 ? { intermediate: 'true' } : {})

  const check = async (version: string) => {
    const res = await f(`/v1/apps/${app}/update?version=${version}&platform=darwin&arch=arm64&format=ferry`, {
      headers: { 'x-ferry-device-id': 'device-far-0001' },
    })
    if (res.status === 204) return null
    const body = (await res.json()) as { version: string; critical: boolean }
    return { version: body.version, critical: body.critical }
  }
  // 70 releases signed by the new key lie above 1.0.0, which trusts only the old one; the
  // intermediate 1.40.0 is signed by a key it does not trust, so it does not hold it back either.
  assert.deepEqual(await check('1.0.0'), { version: '1.1.0', critical: true }, 'the critical 1.0.1 is skipped')
  assert.deepEqual(await check('1.0.1'), { version: '1.1.0', critical: false })
  // The bridge trusts both keys: it gets the new-key releases, up to the intermediate.
  assert.deepEqual(await check('1.1.0'), { version: '1.40.0', critical: false })
  assert.deepEqual(await check('1.40.0'), { version: '1.71.0', critical: false })

  // The explanation loads every release and agrees.
  const explained = (await expectSpec(
    'explainUpdate',
    await f(
      `/v1/apps/${app}/update/explain?version=1.0.0&channel=stable&platform=darwin&arch=arm64&deviceId=device-far-0001`,
      bearer(team.token),
    ),
    200,
  )) as { offered: string | null; keyHold?: { version: string; bridge: string | null } }
  assert.equal(explained.offered, '1.1.0')
  assert.deepEqual(explained.keyHold && { version: explained.keyHold.version, bridge: explained.keyHold.bridge }, {
    version: '1.71.0',
    bridge: '1.1.0',
  })
})
