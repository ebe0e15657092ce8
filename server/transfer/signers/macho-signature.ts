/**
 * @module Who signed a macOS executable: the Team ID of a Mach-O's code signature. A thin Mach-O's
 * `LC_CODE_SIGNATURE` load command points at a SuperBlob (big-endian) whose CodeDirectory names
 * the Team ID (version 0x20200 and later) and whose CMS blob is a PKCS#7 SignedData; its signer
 * certificate ("Developer ID Application: Name (TEAMID)") carries the Team ID as its subject OU.
 * A fat (universal) file holds one such Mach-O per architecture; all must name the same team.
 * An ad-hoc signature (no CMS, no certificate) reads as unsigned. Ferry reads the identity; it does
 * not check the signature (macOS and the updater do that on the device).
 */
import { attribute, certificateFingerprint, signedDataCertificate, type SignerReading } from './authenticode.ts'
import { MsixManifestError, type RangeReader } from './msix-manifest.ts'

const MH_MAGIC = 0xfeedface
const MH_MAGIC_64 = 0xfeedfacf
const FAT_MAGIC = 0xcafebabe
const FAT_MAGIC_64 = 0xcafebabf
const LC_CODE_SIGNATURE = 0x1d
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0
const CSMAGIC_CODEDIRECTORY = 0xfade0c02
const CSMAGIC_BLOBWRAPPER = 0xfade0b01
const CSSLOT_CODEDIRECTORY = 0
const CSSLOT_SIGNATURESLOT = 0x10000
const CS_SUPPORTSTEAMID = 0x20200
/** Real files have 1 to 4 architectures; `0xcafebabe` is also a Java class file's magic. */
const MAX_ARCHITECTURES = 16
/** Load commands larger than this are refused (real ones are a few KiB). */
const MAX_LOAD_COMMANDS = 1024 * 1024
/** A code signature larger than this is refused (its hashes are 1/128 of the code per digest). */
export const MAX_SIGNATURE = 16 * 1024 * 1024
const MAX_BLOBS = 64

type Identity = { teamId: string; commonName: string | null; organization: string | null; fingerprint: string }
type SliceReading = { identity: Identity | null } | { problem: string }

const TEAM_ID = /^[0-9A-Za-z]{1,32}$/

/** The Team ID a CodeDirectory names; `null` when it names none, a problem when it is damaged. */
function codeDirectoryTeam(signature: Uint8Array, at: number, end: number): string | null | { problem: string } {
  const view = new DataView(signature.buffer, signature.byteOffset, signature.byteLength)
  if (at + 44 > end || view.getUint32(at) !== CSMAGIC_CODEDIRECTORY)
    return { problem: 'has a code signature whose CodeDirectory is damaged' }
  const length = view.getUint32(at + 4)
  if (length < 44 || at + length > end) return { problem: 'has a code signature whose CodeDirectory is damaged' }
  if (view.getUint32(at + 8) < CS_SUPPORTSTEAMID || length < 52) return null
  const teamOffset = view.getUint32(at + 48)
  if (teamOffset === 0) return null
  const start = at + teamOffset
  const stop = start < at + length ? signature.subarray(start, at + length).indexOf(0) : -1
  const team = stop < 0 ? '' : new TextDecoder().decode(signature.subarray(start, start + stop))
  return TEAM_ID.test(team) ? team : { problem: 'has a code signature whose CodeDirectory Team ID is damaged' }
}

/**
 * The identity in one embedded signature (a SuperBlob): a Mach-O's, or a disk image's
 * (disk-image-signature.ts). Slots other than the CodeDirectory and the CMS blob (requirements,
 * entitlements, a stapled notarization ticket) are skipped.
 */
export async function superBlobIdentity(signature: Uint8Array): Promise<SliceReading> {
  const view = new DataView(signature.buffer, signature.byteOffset, signature.byteLength)
  const damaged = { problem: 'has a code signature that is not a valid SuperBlob' }
  if (signature.length < 12 || view.getUint32(0) !== CSMAGIC_EMBEDDED_SIGNATURE) return damaged
  const length = Math.min(view.getUint32(4), signature.length)
  const count = view.getUint32(8)
  if (count > MAX_BLOBS || 12 + count * 8 > length) return damaged
  let team: string | null = null
  let cms: Uint8Array | undefined
  for (let i = 0; i < count; i++) {
    const type = view.getUint32(12 + i * 8)
    const offset = view.getUint32(16 + i * 8)
    if (offset < 12 + count * 8 || offset + 8 > length) return damaged
    if (type === CSSLOT_CODEDIRECTORY) {
      const read = codeDirectoryTeam(signature, offset, length)
      if (read !== null && typeof read === 'object') return read
      team = read
    } else if (type === CSSLOT_SIGNATURESLOT) {
      const blobLength = view.getUint32(offset + 4)
      if (view.getUint32(offset) !== CSMAGIC_BLOBWRAPPER || blobLength < 8 || offset + blobLength > length)
        return { problem: 'has a code signature whose CMS blob is damaged' }
      if (blobLength > 8) cms = signature.subarray(offset + 8, offset + blobLength)
    }
  }
  // Ad-hoc: no certificate, nothing installed apps could pin.
  if (!cms) return { identity: null }
  const found = signedDataCertificate(cms)
  if ('problem' in found) return found
  const ou = attribute(found.certificate, '2.5.4.11')
  const teamId = ou ?? team
  if (teamId === null || !TEAM_ID.test(teamId))
    return { problem: 'has a code signature whose certificate names no Team ID (subject OU)' }
  if (team !== null && team !== teamId)
    return { problem: `has a code signature whose CodeDirectory names Team ID ${team} but whose certificate ${teamId}` }
  return {
    identity: {
      teamId,
      commonName: attribute(found.certificate, '2.5.4.3'),
      organization: attribute(found.certificate, '2.5.4.10'),
      fingerprint: await certificateFingerprint(found.certificate),
    },
  }
}

/** The identity of the thin Mach-O at `offset` (`length` bytes); unsigned when it is no Mach-O. */
async function sliceIdentity(read: RangeReader, offset: number, length: number): Promise<SliceReading> {
  if (length < 32) return { identity: null }
  const header = await read(offset, offset + 31)
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
  const magic = view.getUint32(0, true)
  if (magic !== MH_MAGIC && magic !== MH_MAGIC_64) return { identity: null }
  const headerSize = magic === MH_MAGIC_64 ? 32 : 28
  const ncmds = view.getUint32(16, true)
  const sizeofcmds = view.getUint32(20, true)
  if (sizeofcmds > MAX_LOAD_COMMANDS || headerSize + sizeofcmds > length)
    return { problem: `has Mach-O load commands of ${sizeofcmds} bytes that do not fit the file` }
  if (sizeofcmds === 0) return { identity: null }
  const commands = await read(offset + headerSize, offset + headerSize + sizeofcmds - 1)
  const cmds = new DataView(commands.buffer, commands.byteOffset, commands.byteLength)
  for (let i = 0, at = 0; i < ncmds && at + 8 <= commands.length; i++) {
    const cmd = cmds.getUint32(at, true)
    const cmdsize = cmds.getUint32(at + 4, true)
    if (cmdsize < 8 || at + cmdsize > commands.length) return { problem: 'has a damaged Mach-O load command' }
    if (cmd === LC_CODE_SIGNATURE) {
      if (cmdsize < 16) return { problem: 'has a damaged Mach-O load command' }
      const dataoff = cmds.getUint32(at + 8, true)
      const datasize = cmds.getUint32(at + 12, true)
      if (datasize > MAX_SIGNATURE || dataoff + datasize > length)
        return { problem: `has a code signature of ${datasize} bytes at offset ${dataoff} that does not fit the file` }
      if (datasize < 12) return { problem: 'has a code signature that is not a valid SuperBlob' }
      return superBlobIdentity(await read(offset + dataoff, offset + dataoff + datasize - 1))
    }
    at += cmdsize
  }
  return { identity: null }
}

/** The architectures of a fat file as `[offset, size]`; `undefined` when it is not one. */
async function fatSlices(read: RangeReader, size: number): Promise<Array<[number, number]> | undefined | string> {
  const head = await read(0, 7)
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength)
  const magic = view.getUint32(0)
  if (magic !== FAT_MAGIC && magic !== FAT_MAGIC_64) return undefined
  const count = view.getUint32(4)
  if (count === 0 || count > MAX_ARCHITECTURES) return undefined
  const entry = magic === FAT_MAGIC_64 ? 32 : 20
  if (8 + count * entry > size) return 'has a universal (fat) header that does not fit the file'
  const table = await read(8, 8 + count * entry - 1)
  const arches = new DataView(table.buffer, table.byteOffset, table.byteLength)
  const slices: Array<[number, number]> = []
  for (let i = 0; i < count; i++) {
    const at = i * entry
    const offset =
      magic === FAT_MAGIC_64 ? arches.getUint32(at + 8) * 2 ** 32 + arches.getUint32(at + 12) : arches.getUint32(at + 8)
    const length =
      magic === FAT_MAGIC_64
        ? arches.getUint32(at + 16) * 2 ** 32 + arches.getUint32(at + 20)
        : arches.getUint32(at + 12)
    if (offset + length > size) return `has architecture ${i + 1} of its universal (fat) file outside the file`
    slices.push([offset, length])
  }
  return slices
}

/**
 * The Apple code-signing identity of the Mach-O (thin or universal) read by `read`, `size` bytes:
 * its Team ID, or `null` when unsigned or ad-hoc signed, or why it cannot be read.
 */
export async function machoSigner(read: RangeReader, size: number): Promise<SignerReading> {
  try {
    if (size < 8) return { identity: null }
    const fat = await fatSlices(read, size)
    if (typeof fat === 'string') return { problem: fat }
    let first: Identity | null | undefined
    for (const [offset, length] of fat ?? [[0, size]]) {
      const reading = await sliceIdentity(read, offset, length)
      if ('problem' in reading) return reading
      if (first === undefined) first = reading.identity
      else if (first?.teamId !== reading.identity?.teamId)
        return {
          problem: `has architectures signed by different teams (${first?.teamId ?? 'unsigned'} and ${reading.identity?.teamId ?? 'unsigned'})`,
        }
    }
    return { identity: first ? { kind: 'apple', ...first } : null }
  } catch (error) {
    if (error instanceof MsixManifestError) return { problem: error.message }
    throw error
  }
}
