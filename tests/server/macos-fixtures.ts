/**
 * Real macOS executables signed by Apple's `codesign`, from npm packages (`npm pack` checks the
 * registry's integrity hash), cached in ~/.cache/ferry/macho-fixtures and reused. None is committed.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const CACHE = join(homedir(), '.cache', 'ferry', 'macho-fixtures')

/** Pinned packages and the Mach-O each holds. */
export const MACHO_FIXTURES = {
  /** Universal (x86_64 + arm64), "Developer ID Application: GetSentry LLC (97JCY7859U)". */
  sentry: { spec: '@sentry/cli-darwin@3.8.0', tarball: 'sentry-cli-darwin-3.8.0.tgz', file: 'package/bin/sentry-cli' },
  /** arm64, "Developer ID Application: Deno Land Inc. (2H4KBF436B)". */
  deno: { spec: '@deno/darwin-arm64@2.9.6', tarball: 'deno-darwin-arm64-2.9.6.tgz', file: 'package/deno' },
  /** arm64, ad-hoc signed by the linker (a CodeDirectory, no certificate). */
  tauri: {
    spec: '@tauri-apps/cli-darwin-arm64@2.12.6',
    tarball: 'tauri-apps-cli-darwin-arm64-2.12.6.tgz',
    file: 'package/cli.darwin-arm64.node',
  },
} as const

/** What the deno fixture's signature reads as: its Developer ID certificate and Team ID. */
export const DENO_IDENTITY = {
  kind: 'apple',
  teamId: '2H4KBF436B',
  commonName: 'Developer ID Application: Deno Land Inc. (2H4KBF436B)',
  organization: 'Deno Land Inc.',
  fingerprint: '5f1707cebfb424f060176039cd541eccf51698806d16cef24a2351b791a15811',
} as const

/** The path of the fixture's executable, fetched with `npm pack` on first use. */
export async function machoFixture(name: keyof typeof MACHO_FIXTURES): Promise<string> {
  const fixture = MACHO_FIXTURES[name]
  const folder = join(CACHE, name)
  const path = join(folder, fixture.file)
  if (existsSync(path)) return path
  mkdirSync(folder, { recursive: true })
  if (!existsSync(join(CACHE, fixture.tarball))) await run('npm', ['pack', fixture.spec], { cwd: CACHE })
  await run('tar', ['xzf', join(CACHE, fixture.tarball), '-C', folder])
  return path
}

/**
 * A zip of `Harbor.app` whose main executable (named by its Info.plist) is the fixture;
 * `stored` zips without compression (read by ranges) rather than deflating (read by inflating).
 */
export async function harborAppZip(
  work: string,
  name: keyof typeof MACHO_FIXTURES,
  stored: boolean,
): Promise<Uint8Array> {
  const root = join(work, `${name}-app`)
  const contents = join(root, 'Harbor.app', 'Contents')
  mkdirSync(join(contents, 'MacOS'), { recursive: true })
  await run('cp', [await machoFixture(name), join(contents, 'MacOS', 'Harbor')])
  await run(
    'sh',
    [
      '-c',
      `printf '%s' '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>Harbor</string></dict></plist>' > Harbor.app/Contents/Info.plist`,
    ],
    { cwd: root },
  )
  const out = join(work, `${name}.zip`)
  await run('zip', ['-qr', ...(stored ? ['-0'] : []), out, 'Harbor.app'], { cwd: root })
  return readFileSync(out)
}

/** The embedded signature (SuperBlob) of a Mach-O, of its first architecture when universal. */
export function machoSuperBlob(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const slice = view.getUint32(0) === 0xcafebabe ? view.getUint32(8 + 8) : 0
  for (let at = slice + 32, i = 0; i < view.getUint32(slice + 16, true); i++) {
    if (view.getUint32(at, true) === 0x1d) {
      const offset = slice + view.getUint32(at + 8, true)
      return bytes.slice(offset, offset + view.getUint32(at + 12, true))
    }
    at += view.getUint32(at + 4, true)
  }
  throw new Error('the fixture has no LC_CODE_SIGNATURE')
}

/** The blob in slot `type` of a SuperBlob (0: the CodeDirectory, 0x10000: the CMS blob). */
export function superBlobSlot(superBlob: Uint8Array, type: number): Uint8Array {
  const view = new DataView(superBlob.buffer, superBlob.byteOffset, superBlob.byteLength)
  for (let i = 0; i < view.getUint32(8); i++)
    if (view.getUint32(12 + i * 8) === type) {
      const offset = view.getUint32(16 + i * 8)
      return superBlob.subarray(offset, offset + view.getUint32(offset + 4))
    }
  throw new Error(`no slot ${type}`)
}

/** A SuperBlob of the given slots, in order. */
export function superBlob(slots: Array<[number, Uint8Array]>): Uint8Array {
  const header = 12 + slots.length * 8
  const out = new Uint8Array(header + slots.reduce((sum, [, blob]) => sum + blob.length, 0))
  const view = new DataView(out.buffer)
  view.setUint32(0, 0xfade0cc0)
  view.setUint32(4, out.length)
  view.setUint32(8, slots.length)
  let at = header
  slots.forEach(([type, blob], i) => {
    view.setUint32(12 + i * 8, type)
    view.setUint32(16 + i * 8, at)
    out.set(blob, at)
    at += blob.length
  })
  return out
}

const SECTOR = 512

/** An Apple property list with the one `blkx` partition map entry dmg2img and hdiutil read. */
function udifPropertyList(sectors: number): Uint8Array {
  // The partition's block table ("mish"): one raw run of every sector, then the terminator.
  const mish = new Uint8Array(204 + 2 * 40)
  const view = new DataView(mish.buffer)
  view.setUint32(0, 0x6d697368)
  view.setUint32(4, 1)
  view.setUint32(20, sectors) // SectorCount (u64: its low half)
  view.setUint32(32, 0x208) // BuffersNeeded, as hdiutil writes it
  view.setUint32(200, 2) // NumberOfBlockChunks
  view.setUint32(204, 1) // raw
  view.setUint32(204 + 20, sectors) // SectorCount
  view.setUint32(204 + 36, sectors * SECTOR) // CompressedLength
  view.setUint32(244, 0xffffffff) // terminator
  view.setUint32(244 + 12, sectors) // SectorNumber
  view.setUint32(244 + 28, sectors * SECTOR) // CompressedOffset
  const data = Buffer.from(mish).toString('base64')
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>resource-fork</key>
	<dict>
		<key>blkx</key>
		<array>
			<dict>
				<key>Attributes</key>
				<string>0x0050</string>
				<key>CFName</key>
				<string>whole disk (Apple_HFS : 0)</string>
				<key>Data</key>
				<data>
				${data}
				</data>
				<key>ID</key>
				<string>-1</string>
				<key>Name</key>
				<string>whole disk (Apple_HFS : 0)</string>
			</dict>
		</array>
	</dict>
</dict>
</plist>
`,
  )
}

/**
 * A UDIF disk image (read-only, uncompressed) of `contents` (padded to whole sectors), written the
 * way `hdiutil` and `codesign` lay it out: the data fork, the property list, the code signature
 * `signature` when given, then the 512-byte `koly` trailer that points at each. Ferry reads only the
 * trailer and the signature; the rest makes it an image dmg2img converts.
 */
export function udifImage(contents: Uint8Array, signature?: Uint8Array): Uint8Array {
  const sectors = Math.max(1, Math.ceil(contents.length / SECTOR))
  const dataLength = sectors * SECTOR
  const plist = udifPropertyList(sectors)
  const signatureLength = signature?.length ?? 0
  const out = new Uint8Array(dataLength + plist.length + signatureLength + 512)
  out.set(contents, 0)
  out.set(plist, dataLength)
  if (signature) out.set(signature, dataLength + plist.length)
  const koly = new DataView(out.buffer, out.length - 512, 512)
  const u64 = (at: number, value: number) => {
    koly.setUint32(at, Math.floor(value / 2 ** 32))
    koly.setUint32(at + 4, value >>> 0)
  }
  koly.setUint32(0, 0x6b6f6c79) // "koly"
  koly.setUint32(4, 4) // version
  koly.setUint32(8, 512) // header size
  koly.setUint32(12, 1) // flags: flattened
  u64(32, dataLength) // DataForkLength
  koly.setUint32(56, 1) // SegmentNumber
  koly.setUint32(60, 1) // SegmentCount
  u64(216, dataLength) // XMLOffset
  u64(224, plist.length) // XMLLength
  if (signature) {
    u64(296, dataLength + plist.length) // CodeSignatureOffset
    u64(304, signatureLength) // CodeSignatureLength
  }
  koly.setUint32(488, 1) // ImageVariant: device image
  u64(492, sectors) // SectorCount
  return out
}
