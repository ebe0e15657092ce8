/**
 * Reading one stream of an OLE compound file with ranged reads: a real MSI (msitools' `wixl`,
 * signed by `osslsigncode`) reads back the signature `msiinfo extract` gives; damaged copies
 * (a chain that loops, a directory past the end, random byte changes) read as a problem or a
 * stream, never as an exception (an upload must not become a 500).
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { createMemoryBlobs } from '../../server/storage/blobs/blobs-memory.ts'
import { rootStream } from '../../server/transfer/signers/compound-file.ts'

const run = promisify(execFile)
const blobs = createMemoryBlobs()
const STREAM = '\u0005DigitalSignature'
let work: string
let signed: Uint8Array
let signature: Uint8Array
let keys = 0

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'ferry-cfb-'))
  writeFileSync(join(work, 'app.txt'), 'hello')
  writeFileSync(
    join(work, 'app.wxs'),
    `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="Cfb Test" Language="1033" Version="1.0.0" Manufacturer="Ferry Tests" UpgradeCode="0b6a3c1e-2d4f-4a5b-9c6d-7e8f9a0b1c2d">
    <Package InstallerVersion="200" Compressed="yes" />
    <Media Id="1" Cabinet="app.cab" EmbedCab="yes" />
    <Directory Id="TARGETDIR" Name="SourceDir"><Directory Id="ProgramFilesFolder"><Directory Id="INSTALLDIR" Name="CfbTest">
      <Component Id="App" Guid="3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"><File Id="AppTxt" Source="app.txt" /></Component>
    </Directory></Directory></Directory>
    <Feature Id="Main" Level="1"><ComponentRef Id="App" /></Feature>
  </Product>
</Wix>`,
  )
  await run('wixl', ['-o', join(work, 'app.msi'), join(work, 'app.wxs')], { cwd: work })
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    join(work, 'a.key'),
    '-out',
    join(work, 'a.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=Cfb Test',
  ])
  await run('osslsigncode', [
    'sign',
    '-certs',
    join(work, 'a.crt'),
    '-key',
    join(work, 'a.key'),
    '-in',
    join(work, 'app.msi'),
    '-out',
    join(work, 'signed.msi'),
  ])
  await run('msiinfo', ['extract', join(work, 'signed.msi'), STREAM], { encoding: 'buffer' }).then(({ stdout }) => {
    signature = new Uint8Array(stdout)
  })
  signed = new Uint8Array(readFileSync(join(work, 'signed.msi')))
})
after(() => rmSync(work, { recursive: true, force: true }))

async function read(bytes: Uint8Array, name = STREAM, limits = { stream: 1024 * 1024, table: 1024 * 1024 }) {
  const key = `art_cfb${++keys}`
  await blobs.put(key, bytes)
  try {
    return await rootStream(blobs, key, bytes.length, name, limits)
  } finally {
    await blobs.delete(key)
  }
}

test('the signature stream reads back as msitools extracts it; a missing stream or a non-compound file is none', async () => {
  assert.ok(signature.length > 1000)
  assert.deepEqual(await read(signed), { bytes: signature })
  assert.deepEqual(await read(signed, '\u0005NoSuchStream'), { bytes: null })
  assert.deepEqual(await read(readFileSync(join(work, 'app.msi'))), { bytes: null })
  assert.deepEqual(await read(new TextEncoder().encode('MZ not a compound file'.repeat(40))), { bytes: null })
})

test('a stream or a directory larger than its cap is a problem, not read', async () => {
  assert.deepEqual(await read(signed, STREAM, { stream: 100, table: 65536 }), {
    problem: `has a "\\u0005DigitalSignature" stream of ${signature.length} bytes; at most 100 are read`,
  })
  assert.deepEqual(await read(signed, STREAM, { stream: 65536, table: 511 }), {
    problem: 'is a compound file that has a directory larger than 511 bytes',
  })
})

test('a directory chain that loops is a problem, not an endless walk', async () => {
  const looped = signed.slice()
  const view = new DataView(looped.buffer)
  const directory = view.getUint32(0x30, true)
  const fat = view.getUint32(0x4c, true) // the first FAT sector (512-byte sectors)
  view.setUint32((fat + 1) * 512 + directory * 4, directory, true)
  assert.deepEqual(await read(looped), {
    problem: 'is a compound file that has a sector chain that runs past its end or loops',
  })
})

test('random damage to the header, FAT and directory reads as a problem or a stream, never an exception', async () => {
  let seed = 28
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  // Where damage changes what is read: the header's fields and first DIFAT entries, the first FAT,
  // directory and mini FAT sectors.
  const header = new DataView(signed.buffer)
  const sector = (n: number) => Array.from({ length: 512 }, (_, i) => (n + 1) * 512 + i)
  const targets = [
    ...Array.from({ length: 0x60 - 0x1e }, (_, i) => 0x1e + i),
    ...sector(header.getUint32(0x4c, true)),
    ...sector(header.getUint32(0x30, true)),
    ...sector(header.getUint32(0x3c, true)),
  ]
  const outcomes = { problem: 0, stream: 0, none: 0 }
  for (let i = 0; i < 400; i++) {
    const damaged = signed.slice()
    for (let j = 0; j < 1 + Math.floor(random() * 4); j++)
      damaged[targets[Math.floor(random() * targets.length)] ?? 0] =
        random() < 0.5 ? Math.floor(random() * 256) : ([0, 0xff, 0xfe][j % 3] ?? 0)
    const result = await read(damaged)
    if ('problem' in result) outcomes.problem++
    else if (result.bytes) {
      outcomes.stream++
      assert.ok(result.bytes.length <= 1024 * 1024)
    } else outcomes.none++
  }
  assert.ok(outcomes.problem > 0 && outcomes.stream > 0, JSON.stringify(outcomes))
})
