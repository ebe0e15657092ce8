// backend-matrix: sqlite-only — package header parsing on bytes in memory; no database or blob store
/**
 * Reading `.deb` control files and `.rpm` headers: every compression dpkg-deb writes, real rpmbuild
 * output, and hostile bytes (truncated at every length, lying sizes) that must end in a
 * `PackageProblem` naming what is wrong, never another error.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { nodeDecompress } from '../../server/transfer/decompress-node.ts'
import { webDecompress } from '../../server/transfer/decompress.ts'
import {
  PackageProblem,
  parseControl,
  readDebControl,
  readRpmMetadata,
  type ReadRange,
} from '../../server/transfer/linux-packages.ts'
import { buildDeb, buildRpm } from './linux-package-fixtures.ts'

const reader =
  (bytes: Uint8Array): ReadRange =>
  async (offset, length) =>
    bytes.subarray(offset, offset + length)

test('the control stanza of a .deb, with control.tar.xz, .gz or .zst', async () => {
  for (const compression of ['xz', 'gzip', 'zstd'] as const) {
    const control = await readDebControl(
      reader(buildDeb('harbor-notes', '2:1.4.0~rc1', 'arm64', compression)),
      nodeDecompress,
    )
    assert.deepEqual(
      [control.name, control.version, control.arch],
      ['harbor-notes', '2:1.4.0~rc1', 'arm64'],
      compression,
    )
    assert.equal(
      control.fields.find(([k]) => k === 'Description')?.[1],
      'harbor-notes for the repository tests\n A second description line.',
    )
  }
})

test('without the Node runtime, an xz control member is refused by name', async () => {
  await assert.rejects(
    readDebControl(reader(buildDeb('harbor-notes', '1.0.0', 'amd64', 'xz')), webDecompress),
    /control\.tar\.xz that does not decompress/,
  )
  const control = await readDebControl(reader(buildDeb('harbor-notes', '1.0.0', 'amd64', 'gzip')), webDecompress)
  assert.equal(control.name, 'harbor-notes')
})

test('the header of an .rpm built by rpmbuild', async () => {
  const rpm = buildRpm('harbor-notes', '1.4.0')
  const meta = await readRpmMetadata(reader(rpm), rpm.length)
  assert.deepEqual(
    [meta.name, meta.version, meta.release, meta.arch, meta.epoch],
    ['harbor-notes', '1.4.0', '1', 'noarch', 0],
  )
  assert.deepEqual(
    meta.files.filter((f) => !f.dir).map((f) => f.path),
    ['/usr/share/harbor-notes/VERSION'],
  )
  assert.ok(
    meta.provides.some((p) => p.name === 'harbor-notes' && p.flags === 'EQ' && p.ver === '1.4.0' && p.rel === '1'),
  )
  assert.ok(meta.headerStart > 96 && meta.headerEnd > meta.headerStart && meta.headerEnd <= rpm.length)
})

test('packages truncated before their metadata ends are refused as PackageProblem at every length', async () => {
  const deb = buildDeb('harbor-notes', '1.0.0', 'amd64', 'gzip')
  const rpm = buildRpm('harbor-notes', '1.0.0')
  // Only the metadata is read: the .deb up to the end of its control member, the .rpm up to the end of its header.
  const controlSize = Number(new TextDecoder().decode(deb.subarray(72 + 48, 72 + 58)).trim())
  const debEnd = 72 + 60 + controlSize
  const rpmEnd = (await readRpmMetadata(reader(rpm), rpm.length)).headerEnd
  for (const [bytes, end, read] of [
    [deb, debEnd, (b: Uint8Array) => readDebControl(reader(b), nodeDecompress)],
    [rpm, rpmEnd, (b: Uint8Array) => readRpmMetadata(reader(b), b.length)],
  ] as const) {
    for (let length = 0; length < end; length += length < 200 ? 1 : 97) {
      await read(bytes.subarray(0, length)).then(
        () => assert.fail(`a package cut at ${length} of ${end} metadata bytes was read`),
        (error: unknown) => assert.ok(error instanceof PackageProblem, `cut at ${length}: ${String(error)}`),
      )
    }
  }
})

test('a .deb whose ar header claims a huge control member is refused before reading it', async () => {
  const deb = buildDeb('harbor-notes', '1.0.0', 'amd64', 'gzip')
  const lying = deb.slice()
  // The second member (control.tar.gz) starts after the 8-byte magic, a 60-byte header and 4 bytes.
  lying.set(new TextEncoder().encode('9999999999'), 8 + 60 + 4 + 48)
  await assert.rejects(
    readDebControl(reader(lying), nodeDecompress),
    (e: unknown) => e instanceof PackageProblem && /at most 4194304 are read/.test(e.message),
  )
})

test('control fields an index cannot carry are refused with the line', () => {
  assert.throws(() => parseControl('Package: a b\nVersion: 1\nArchitecture: amd64\n'), /Package "a b"/)
  assert.throws(
    () => parseControl('Package: ok\nVersion: 1.0\n\nArchitecture: amd64\n'),
    /blank line in its control file \(line 3\)/,
  )
  assert.throws(() => parseControl('Package: ok\nVersion: one\nArchitecture: amd64\n'), /Version "one"/)
  assert.throws(() => parseControl(' continued\nPackage: ok\n'), /continuation line before any field/)
  assert.deepEqual(
    parseControl('Package: ok\nVersion: 1.0\nArchitecture: all\nSHA256: 00\nFilename: x\n').fields.map(([k]) => k),
    ['Package', 'Version', 'Architecture'],
  )
})
