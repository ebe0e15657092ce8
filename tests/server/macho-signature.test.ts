// backend-matrix: sqlite-only — reads Mach-O code signatures from bytes in memory; no database or blob store
/**
 * Reading a Mach-O's code signature with ranged reads: real executables signed by Apple's
 * `codesign` (tests/server/macos-fixtures.ts) read back their Team IDs, thin and universal; an
 * ad-hoc signature reads as unsigned; damaged copies read as a problem or an identity, never as
 * an exception (an upload must not become a 500). The executable of a deflated app zip is
 * inflated once for all the reads its signature takes.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before, test } from 'node:test'
import { createMemoryBlobs } from '../../server/storage/blobs/blobs-memory.ts'
import { appZipSigner } from '../../server/transfer/signers/app-bundle-zip.ts'
import { machoSigner } from '../../server/transfer/signers/macho-signature.ts'
import { DENO_IDENTITY, harborAppZip, machoFixture } from './macos-fixtures.ts'

let sentry: Uint8Array
let deno: Uint8Array
let adhoc: Uint8Array

before(async () => {
  sentry = new Uint8Array(readFileSync(await machoFixture('sentry')))
  deno = new Uint8Array(readFileSync(await machoFixture('deno')))
  adhoc = new Uint8Array(readFileSync(await machoFixture('tauri')))
})

const read = (bytes: Uint8Array) =>
  machoSigner(async (start, end) => bytes.subarray(start, Math.min(end + 1, bytes.length)), bytes.length)

const team = async (bytes: Uint8Array) => {
  const reading = await read(bytes)
  return 'problem' in reading ? reading : reading.identity?.teamId
}

test('a universal and a thin Developer ID executable read back their Team IDs', async () => {
  assert.equal(sentry[0], 0xca) // 0xcafebabe: universal
  assert.equal(await team(sentry), '97JCY7859U')
  assert.equal(deno[0], 0xcf) // 0xfeedfacf, little-endian: thin 64-bit
  assert.deepEqual(await read(deno), { identity: DENO_IDENTITY })
})

test('an ad-hoc signature and a file that is no Mach-O read as unsigned', async () => {
  assert.deepEqual(await read(adhoc), { identity: null })
  assert.deepEqual(await read(new TextEncoder().encode('#!/bin/sh\nexec true\n')), { identity: null })
})

test('a truncated executable is a problem naming the signature that does not fit', async () => {
  const reading = await read(deno.subarray(0, deno.length - 1000))
  assert.ok('problem' in reading)
  assert.match(reading.problem, /^has a code signature of \d+ bytes at offset \d+ that does not fit the file$/)
})

/** Regions whose damage changes what is read: the headers, load commands and signature blobs. */
function targets(bytes: Uint8Array): number[][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = [Array.from({ length: 64 }, (_, i) => i)]
  const slices =
    view.getUint32(0) === 0xcafebabe
      ? Array.from({ length: view.getUint32(4) }, (_, i) => view.getUint32(8 + i * 20 + 8))
      : [0]
  for (const slice of slices) {
    const commands = view.getUint32(slice + 20, true)
    out.push(Array.from({ length: 32 + commands }, (_, i) => slice + i))
    for (let at = slice + 32, i = 0; i < view.getUint32(slice + 16, true); i++) {
      if (view.getUint32(at, true) === 0x1d) {
        const signature = slice + view.getUint32(at + 8, true)
        out.push(Array.from({ length: 512 }, (_, k) => signature + k))
        // The CMS blob: its wrapper and the start of its DER.
        for (let b = 0; b < view.getUint32(signature + 8); b++)
          if (view.getUint32(signature + 12 + b * 8) === 0x10000) {
            const cms = signature + view.getUint32(signature + 16 + b * 8)
            out.push(Array.from({ length: 256 }, (_, k) => cms + k))
          }
      }
      at += view.getUint32(at + 4, true)
    }
  }
  return out
}

test('random damage to headers, load commands and the signature reads as a problem or an identity, never an exception', async () => {
  let seed = 28
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const regions = targets(sentry)
  const outcomes = { problem: 0, identity: 0, unsigned: 0 }
  for (let i = 0; i < 300; i++) {
    const damaged = sentry.slice() // a copy (a Uint8Array, not a Buffer)
    for (let j = 0; j < 1 + Math.floor(random() * 4); j++) {
      const region = regions[Math.floor(random() * regions.length)] ?? []
      damaged[region[Math.floor(random() * region.length)] ?? 0] =
        random() < 0.5 ? Math.floor(random() * 256) : ([0, 0xff, 0xfe][j % 3] ?? 0)
    }
    const reading = await read(damaged)
    if ('problem' in reading) outcomes.problem++
    else if (reading.identity) outcomes.identity++
    else outcomes.unsigned++
  }
  assert.ok(outcomes.problem > 0 && outcomes.identity > 0, JSON.stringify(outcomes))
})

test('a deflated app zip is read once: the bytes fetched from storage stay within the zip size', async () => {
  const work = mkdtempSync(join(tmpdir(), 'ferry-macho-zip-'))
  try {
    const zip = await harborAppZip(work, 'sentry', false)
    const blobs = createMemoryBlobs()
    await blobs.put('art_sentry', zip)
    let fetched = 0
    const counting = {
      ...blobs,
      get: async (key: string, range?: { start: number; end: number }) => {
        fetched += range ? range.end - range.start + 1 : zip.length
        return blobs.get(key, range)
      },
    }
    const reading = await appZipSigner(counting, 'art_sentry', zip.length)
    assert.ok(reading && 'identity' in reading)
    assert.equal(reading.identity?.teamId, '97JCY7859U')
    // Universal: the fat header, then each architecture's header, load commands and signature,
    // six reads of the executable that inflating from its start each time would fetch anew.
    assert.ok(fetched < zip.length * 1.2, `fetched ${fetched} bytes of a ${zip.length}-byte zip`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})
