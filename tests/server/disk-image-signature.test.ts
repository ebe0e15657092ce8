// backend-matrix: sqlite-only — reads disk image code signatures from bytes in memory; no database or blob store
/**
 * Reading a `.dmg`'s code signature with ranged reads. No Developer-ID-signed disk image can be had
 * here (none ships in an npm or Debian package), so the images are UDIF files written by the test
 * (tests/server/macos-fixtures.ts udifImage; Debian's dmg2img converts them, which shows they are
 * images) whose `koly` trailer points at a real signature transplanted from an executable signed
 * by Apple's `codesign`: the same SuperBlob, CodeDirectory and CMS blob a signed image carries.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { diskImageSigner } from '../../server/transfer/signers/disk-image-signature.ts'
import { DENO_IDENTITY, machoFixture, machoSuperBlob, superBlob, superBlobSlot, udifImage } from './macos-fixtures.ts'

const run = promisify(execFile)

let work: string
let contents: Uint8Array
let sentry: Uint8Array
let deno: Uint8Array
let adhoc: Uint8Array

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'ferry-dmg-'))
  contents = new Uint8Array(64 * 1024).map((_, i) => (i * 7) % 251)
  sentry = machoSuperBlob(readFileSync(await machoFixture('sentry')))
  deno = machoSuperBlob(readFileSync(await machoFixture('deno')))
  adhoc = machoSuperBlob(readFileSync(await machoFixture('tauri')))
})
after(() => rmSync(work, { recursive: true, force: true }))

/** Reads `bytes` by ranges, counting how many bytes were asked for. */
function reader(bytes: Uint8Array) {
  const asked = { bytes: 0 }
  const read = async (start: number, end: number) => {
    asked.bytes += end - start + 1
    return bytes.subarray(start, Math.min(end + 1, bytes.length))
  }
  return { read, asked }
}

const signer = (bytes: Uint8Array) => diskImageSigner(reader(bytes).read, bytes.length)

test('the images are UDIF: dmg2img converts them back to their contents', async () => {
  const image = join(work, 'Harbor.dmg')
  writeFileSync(image, udifImage(contents, deno))
  await run('dmg2img', ['-s', image, join(work, 'Harbor.img')])
  assert.deepEqual(new Uint8Array(readFileSync(join(work, 'Harbor.img'))), contents)
})

test('a signed image reads back its Team ID, from the trailer and the signature alone', async () => {
  const image = udifImage(new Uint8Array(8 * 1024 * 1024), deno)
  const { read, asked } = reader(image)
  assert.deepEqual(await diskImageSigner(read, image.length), { identity: DENO_IDENTITY })
  assert.equal(asked.bytes, 512 + deno.length)
  const other = await signer(udifImage(contents, sentry))
  assert.ok(other && 'identity' in other)
  assert.equal(other.identity?.teamId, '97JCY7859U')
})

test('an image without a signature, or signed ad hoc, is unsigned; a file without a koly trailer is no image', async () => {
  assert.deepEqual(await signer(udifImage(contents)), { identity: null })
  assert.deepEqual(await signer(udifImage(contents, adhoc)), { identity: null })
  assert.equal(await signer(contents), undefined)
  assert.equal(await signer(new TextEncoder().encode('koly')), undefined)
})

test('a CodeDirectory of one team with the certificate of another is a problem naming both', async () => {
  const mixed = superBlob([
    [0, superBlobSlot(deno, 0)],
    [0x10000, superBlobSlot(sentry, 0x10000)],
  ])
  assert.deepEqual(await signer(udifImage(contents, mixed)), {
    problem: 'has a code signature whose CodeDirectory names Team ID 2H4KBF436B but whose certificate 97JCY7859U',
  })
})

test('a stapled notarization ticket (one more slot) is skipped', async () => {
  const ticket = new Uint8Array(2048).map((_, i) => (i * 13) % 256)
  ticket.set(new TextEncoder().encode('s8ch'))
  const stapled = superBlob([
    [0, superBlobSlot(sentry, 0)],
    [0x10000, superBlobSlot(sentry, 0x10000)],
    [0x10002, ticket],
  ])
  const reading = await signer(udifImage(contents, stapled))
  assert.ok(reading && 'identity' in reading)
  assert.equal(reading.identity?.teamId, '97JCY7859U')
})

test('a signature that does not fit the image is a problem saying where it was said to be', async () => {
  const image = udifImage(contents, deno)
  const view = new DataView(image.buffer, image.length - 512, 512)
  view.setUint32(308, view.getUint32(308) + 1024)
  const reading = await signer(image)
  assert.deepEqual(reading, {
    problem: `has a code signature of ${deno.length + 1024} bytes at offset ${view.getUint32(300)} that does not fit the file`,
  })
  view.setUint32(308, deno.length)
  view.setUint32(296, 1) // the offset past 4 GiB
  const far = await signer(image)
  assert.ok(far && 'problem' in far)
  assert.match(far.problem, /^has a code signature of \d+ bytes at offset 429\d{7} that does not fit the file$/)
})

test('random damage to the trailer and the signature reads as a problem or an identity, never an exception', async () => {
  const image = udifImage(contents, sentry)
  const signatureStart = image.length - 512 - sentry.length
  const view = new DataView(sentry.buffer, sentry.byteOffset, sentry.byteLength)
  let cms = 0
  for (let b = 0; b < view.getUint32(8); b++)
    if (view.getUint32(12 + b * 8) === 0x10000) cms = signatureStart + view.getUint32(16 + b * 8)
  const regions = [
    Array.from({ length: 512 }, (_, k) => image.length - 512 + k),
    Array.from({ length: 512 }, (_, k) => signatureStart + k),
    Array.from({ length: 256 }, (_, k) => cms + k),
  ]
  let seed = 28
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const outcomes = { problem: 0, identity: 0, unsigned: 0, none: 0 }
  for (let i = 0; i < 300; i++) {
    const damaged = image.slice()
    for (let j = 0; j < 1 + Math.floor(random() * 4); j++) {
      const region = regions[Math.floor(random() * regions.length)] ?? []
      damaged[region[Math.floor(random() * region.length)] ?? 0] =
        random() < 0.5 ? Math.floor(random() * 256) : ([0, 0xff, 0xfe][j % 3] ?? 0)
    }
    const reading = await signer(damaged)
    if (reading === undefined) outcomes.none++
    else if ('problem' in reading) outcomes.problem++
    else if (reading.identity) outcomes.identity++
    else outcomes.unsigned++
  }
  assert.ok(outcomes.problem > 0 && outcomes.identity > 0, JSON.stringify(outcomes))
})

// FERRY_TEST_DMG=<a signed .dmg> FERRY_TEST_DMG_TEAM=<its Team ID> runs this on a real image made by
// `codesign` (e.g. on a Mac); without them, on the test's own image around Deno's real signature.
test('a whole image file read by ranges gives its Team ID (FERRY_TEST_DMG: a real signed image)', async () => {
  const path = process.env.FERRY_TEST_DMG ?? join(work, 'Deno.dmg')
  const team = process.env.FERRY_TEST_DMG ? process.env.FERRY_TEST_DMG_TEAM : '2H4KBF436B'
  assert.ok(team, 'FERRY_TEST_DMG_TEAM names the Team ID the image is signed with')
  if (!process.env.FERRY_TEST_DMG) writeFileSync(path, udifImage(contents, deno))
  const bytes = new Uint8Array(readFileSync(path))
  const read = async (start: number, end: number) => bytes.subarray(start, Math.min(end + 1, bytes.length))
  const result = await diskImageSigner(read, bytes.length)
  assert.ok(result && 'identity' in result, `${path}: ${JSON.stringify(result)}`)
  assert.equal(result.identity?.teamId, team)
})
