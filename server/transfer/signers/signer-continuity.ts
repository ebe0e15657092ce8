/**
 * @module Signer continuity: who signed an upload's Windows installers (.exe, .msi) and macOS apps (an
 * `.app` in a `.zip`, a `.dmg`), and whether publishing
 * it would change the publisher installed apps trust. A new publisher (or unsigned after signed)
 * breaks updaters that pin the publisher (electron-updater's `publisherName`), so it must be
 * declared (`signerChange`); the first signed version of a never-signed app needs no declaration.
 */
import { type FieldError, HttpProblem } from '../../core/problem.ts'
import type { BlobStore, Db } from '../../core/storage.ts'
import { lockSignerLine, newestPublishedSigner, versionSignerState } from '../../storage/releases/signers.ts'
import {
  authenticodeSigner,
  describeSigner,
  msiSigner,
  samePublisher,
  type SignerIdentity,
  type SignerReading,
} from './authenticode.ts'
import { appZipSigner } from './app-bundle-zip.ts'
import { dmgSigner } from './disk-image-signature.ts'

/** `read: false`: the upload has no file whose signer Ferry reads. */
export type UploadSigner = { read: false } | { read: true; identity: SignerIdentity | null }

/** How the signer of a file is read, by its extension; `undefined` when Ferry reads none (or it resolves to `undefined`: a `.zip` without an app, a `.dmg` that is no UDIF image). */
function signerReader(
  name: string,
): ((blobs: BlobStore, key: string, size: number) => Promise<SignerReading | undefined>) | undefined {
  const lower = name.toLowerCase()
  if (lower.endsWith('.zip')) return appZipSigner
  if (lower.endsWith('.dmg')) return dmgSigner
  return lower.endsWith('.exe') ? authenticodeSigner : lower.endsWith('.msi') ? msiSigner : undefined
}

/** The signer of the upload's `.exe`, `.msi`, app `.zip` and `.dmg` files; a 400 when one cannot be read or they disagree. */
export async function readUploadSigner(
  blobs: BlobStore,
  files: { name: string; blobKey: string; size: number }[],
): Promise<UploadSigner> {
  const errors: FieldError[] = []
  let first: { name: string; identity: SignerIdentity | null } | undefined
  let unsignedImage = false
  for (const file of files) {
    const read = signerReader(file.name)
    if (!read) continue
    const reading = await read(blobs, file.blobKey, file.size)
    if (!reading) continue
    // A disk image need not be signed (electron-builder leaves it unsigned by default; the app
    // inside is): an unsigned one counts only when the version has no other file to read.
    if ('identity' in reading && reading.identity === null && file.name.toLowerCase().endsWith('.dmg')) {
      unsignedImage = true
    } else if ('problem' in reading) {
      errors.push({ field: 'files', message: `${JSON.stringify(file.name)} ${reading.problem}` })
    } else if (!first) {
      first = { name: file.name, identity: reading.identity }
    } else if (!samePublisher(first.identity, reading.identity)) {
      errors.push({
        field: 'files',
        message: `${JSON.stringify(file.name)} is signed by ${describeSigner(reading.identity)}, but ${JSON.stringify(first.name)} by ${describeSigner(first.identity)}; one version has one publisher`,
      })
    }
  }
  if (errors.length)
    throw new HttpProblem(
      'validation',
      `${errors.length} field${errors.length === 1 ? ' is' : 's are'} invalid.`,
      errors,
    )
  return first
    ? { read: true, identity: first.identity }
    : unsignedImage
      ? { read: true, identity: null }
      : { read: false }
}

/** A stored `SignerIdentity` (JSON text); `null` for unsigned or anything else. */
export function storedSigner(text: string | null): SignerIdentity | null {
  if (text === null) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const record: Record<string, unknown> = Object.fromEntries(Object.entries(value))
  const kind = record.kind
  if (kind !== 'authenticode' && kind !== 'apple') return null
  const field = (name: string): string | null => {
    const v = record[name]
    return typeof v === 'string' ? v : null
  }
  const fingerprint = field('fingerprint')
  const teamId = field('teamId')
  if (fingerprint === null || (kind === 'apple' && teamId === null)) return null
  return {
    kind,
    commonName: field('commonName'),
    organization: field('organization'),
    fingerprint,
    ...(kind === 'apple' && teamId !== null ? { teamId } : {}),
  }
}

export interface ContinuityTarget {
  app: string
  version: string
  channelId: string
  platformId: string
  /** The version itself, when it is already stored (a draft being published). */
  versionId?: string
  signer: UploadSigner
  declared: boolean
}

/**
 * Compares a version about to be published with the newest published one of its app, channel and
 * platform. Returns the previous publisher when the signer changed (declared), `null` when it did
 * not; throws a 409 naming both publishers when it changed undeclared. `trx` is the transaction
 * that records the version: the check holds the line's lock until it ends.
 */
export async function checkSignerContinuity(trx: Db, target: ContinuityTarget): Promise<SignerIdentity | null> {
  if (!target.signer.read) return null
  await lockSignerLine(trx, target.app, target.channelId, target.platformId)
  const previous = await newestPublishedSigner(trx, target.app, target.channelId, target.platformId, target.versionId)
  const before = previous ? storedSigner(previous.signer) : null
  const current = target.signer.identity
  // Nothing signed before: an unsigned or a first signed version changes nothing installed apps check.
  if (!previous || !before || samePublisher(before, current)) return null
  if (target.declared) return before
  throw new HttpProblem(
    'conflict',
    `Version ${target.version} is ${current ? `signed by ${describeSigner(current)}` : 'unsigned'}, but ${previous.version}, the newest published version of ${target.app} on this channel and platform, is signed by ${describeSigner(before)}. Installed apps that check the publisher would refuse the update. Sign it with the same certificate, or declare the change with signerChange=true (a bridge release).`,
  )
}

/** The explain endpoint's note on an offered version that declared a change of signer. */
export function signerChangeNote(
  current: SignerIdentity | null,
  previous: SignerIdentity | null,
  note: string,
): string {
  const now = current ? `signed by ${describeSigner(current)}` : 'unsigned'
  const was = previous ? `, was ${describeSigner(previous)}` : ''
  return `${now}${was}: a bridge release${note ? ` (${note})` : ''}`
}

/**
 * The version columns an upload records: its signer (read before, from the stored files) and, when
 * published, the continuity check's outcome; `trx` is the transaction that inserts the version.
 */
export async function uploadSignerColumns(
  trx: Db,
  signer: UploadSigner,
  upload: Omit<ContinuityTarget, 'signer'> & { published: boolean; note: string | undefined },
) {
  const previous = upload.published ? await checkSignerContinuity(trx, { ...upload, signer }) : null
  return {
    signer_read: signer.read ? 1 : 0,
    signer: signer.read && signer.identity ? JSON.stringify(signer.identity) : null,
    signer_change_note: upload.declared ? (upload.note ?? '') : null,
    signer_previous: previous ? JSON.stringify(previous) : null,
  }
}

/**
 * Publishing a stored draft: the same check, against what is published now; `{}` when it is
 * already published or gone. `trx` is the transaction that publishes it.
 */
export async function publishSignerColumns(
  trx: Db,
  app: string,
  versionId: string,
): Promise<{ signer_previous?: string | null }> {
  const row = await versionSignerState(trx, app, versionId)
  if (!row || row.published === 1 || row.signer_read !== 1) return {}
  const previous = await checkSignerContinuity(trx, {
    app,
    version: row.version,
    channelId: row.channel_id,
    platformId: row.platform_id,
    versionId,
    signer: { read: true, identity: storedSigner(row.signer) },
    declared: row.signer_change_note !== null,
  })
  return { signer_previous: previous ? JSON.stringify(previous) : null }
}
