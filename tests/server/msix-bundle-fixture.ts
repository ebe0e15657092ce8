/**
 * A real `.msixbundle` from real packages, laid out as `makeappx bundle` writes one: Debian's `zip`
 * stores (`-0`) the `.msix` packages first, then `AppxMetadata/AppxBundleManifest.xml` (its
 * `<Package … Offset Size>` giving where each package's bytes lie in the bundle, which Windows reads
 * by range), `AppxBlockMap.xml` (SHA-256 of every 64 KiB block of each file) and
 * `[Content_Types].xml`. Unsigned: Windows installs it only signed (`AppxSignature.p7x`), which
 * needs Windows' SignTool; FERRY_TEST_MSIXBUNDLE runs the same test on a real signed bundle.
 * Also the readers a Windows client uses on it: the zip's central directory and the bundle manifest.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface BundledPackage {
  fileName: string
  bytes: Uint8Array
  architecture: string
}

export interface BundleIdentity {
  name: string
  publisher: string
  version: string
}

const BLOCK = 64 * 1024

/** SHA-256 (base64) of each 64 KiB block, as AppxBlockMap.xml lists them. */
export function blockHashes(bytes: Uint8Array): string[] {
  const out: string[] = []
  for (let at = 0; at < bytes.length; at += BLOCK)
    out.push(
      createHash('sha256')
        .update(bytes.subarray(at, at + BLOCK))
        .digest('base64'),
    )
  return out
}

/** Where each stored entry's data begins (local header + name + extra), by name, reading local headers in order. */
function storedEntries(zip: Uint8Array): Map<string, { offset: number; size: number; lfhSize: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const out = new Map<string, { offset: number; size: number; lfhSize: number }>()
  let at = 0
  while (at + 30 <= zip.length && view.getUint32(at, true) === 0x04034b50) {
    assert.equal(view.getUint16(at + 8, true), 0, 'zip -0 stores every entry')
    const size = view.getUint32(at + 18, true)
    const nameLength = view.getUint16(at + 26, true)
    const extraLength = view.getUint16(at + 28, true)
    const name = new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength))
    const lfhSize = 30 + nameLength + extraLength
    out.set(name, { offset: at + lfhSize, size, lfhSize })
    at += lfhSize + size
  }
  return out
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?>\r\n' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="msix" ContentType="application/vnd.ms-appx"/>' +
  '<Override PartName="/AppxBlockMap.xml" ContentType="application/vnd.ms-appx.blockmap+xml"/>' +
  '<Override PartName="/AppxMetadata/AppxBundleManifest.xml" ContentType="application/vnd.ms-appx.bundlemanifest+xml"/>' +
  '</Types>'

/** The bundle's bytes and its manifest. */
export function buildMsixBundle(
  identity: BundleIdentity,
  packages: BundledPackage[],
): { bytes: Uint8Array; manifest: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-msixbundle-'))
  const zip = (names: string[]) => {
    const made = spawnSync('zip', ['-q', '-0', '-X', 'bundle.msixbundle', ...names], { cwd: dir, encoding: 'utf8' })
    assert.equal(made.status, 0, made.stderr)
    return new Uint8Array(readFileSync(join(dir, 'bundle.msixbundle')))
  }
  try {
    for (const p of packages) writeFileSync(join(dir, p.fileName), p.bytes)
    const placed = storedEntries(zip(packages.map((p) => p.fileName)))
    const manifest = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Bundle xmlns="http://schemas.microsoft.com/appx/2013/bundle" SchemaVersion="5.0">',
      `  <Identity Name="${identity.name}" Publisher="${identity.publisher}" Version="${identity.version}"/>`,
      '  <Packages>',
      ...packages.map((p) => {
        const at = placed.get(p.fileName)
        assert.ok(at, p.fileName)
        return (
          `    <Package Type="application" Version="${identity.version}" Architecture="${p.architecture}" ` +
          `FileName="${p.fileName}" Offset="${at.offset}" Size="${at.size}">` +
          '<Resources><Resource Language="en-us"/></Resources></Package>'
        )
      }),
      '  </Packages>',
      '</Bundle>',
      '',
    ].join('\r\n')
    mkdirSync(join(dir, 'AppxMetadata'))
    writeFileSync(join(dir, 'AppxMetadata/AppxBundleManifest.xml'), manifest)
    const manifestName = 'AppxMetadata/AppxBundleManifest.xml'
    const files: Array<[string, Uint8Array]> = [
      ...packages.map((p): [string, Uint8Array] => [p.fileName, p.bytes]),
      [manifestName, new TextEncoder().encode(manifest)],
    ]
    const blockMap = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<BlockMap xmlns="http://schemas.microsoft.com/appx/2010/blockmap" HashMethod="http://www.w3.org/2001/04/xmlenc#sha256">',
      ...files.map(
        ([name, bytes]) =>
          `<File Name="${name.replaceAll('/', '\\')}" Size="${bytes.length}" LfhSize="${30 + new TextEncoder().encode(name).length}">` +
          blockHashes(bytes)
            .map((h) => `<Block Hash="${h}"/>`)
            .join('') +
          '</File>',
      ),
      '</BlockMap>',
      '',
    ].join('\r\n')
    writeFileSync(join(dir, 'AppxBlockMap.xml'), blockMap)
    writeFileSync(join(dir, '[Content_Types].xml'), CONTENT_TYPES)
    const bytes = zip([manifestName, 'AppxBlockMap.xml', '[Content_Types].xml'])
    // Appending kept the packages where the manifest says they are.
    for (const p of packages) assert.deepEqual(storedEntries(bytes).get(p.fileName), placed.get(p.fileName))
    return { bytes, manifest }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One entry of a bundle as `unzip -p` reads it: the reader independent of Ferry's. */
export function unzipEntry(bundle: Uint8Array, name: string): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-unzip-'))
  try {
    writeFileSync(join(dir, 'b.zip'), bundle)
    const out = spawnSync('unzip', ['-p', 'b.zip', name], { cwd: dir, maxBuffer: 1 << 30 })
    assert.equal(out.status, 0, out.stderr.toString())
    return new Uint8Array(out.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The bundle manifest's identity and packages (FileName, Offset, Size, Architecture). */
export function readBundleManifest(xml: string) {
  const attrs = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']))
  const identity = attrs(/<Identity\b[^>]*>/.exec(xml)?.[0] ?? '')
  const packages = [...xml.matchAll(/<Package\b[^>]*>/g)].map((m) => attrs(m[0]))
  return {
    identity: { name: identity.Name ?? '', publisher: identity.Publisher ?? '', version: identity.Version ?? '' },
    packages: packages.map((p) => ({
      fileName: p.FileName ?? '',
      architecture: p.Architecture ?? '',
      offset: Number(p.Offset),
      size: Number(p.Size),
    })),
  }
}
