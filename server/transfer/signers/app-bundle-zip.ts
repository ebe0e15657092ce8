/**
 * @module Who signed the macOS app in a `.zip`: the code signature of its main executable,
 * `X.app/Contents/MacOS/<CFBundleExecutable>` (from `X.app/Contents/Info.plist`, else the one file
 * in `Contents/MacOS`). The zip's central directory and that entry are read by ranges; a
 * compressed executable is inflated once, as a stream, never held whole.
 */
import type { BlobStore } from '../../core/storage.ts'
import type { SignerReading } from './authenticode.ts'
import { machoSigner } from './macho-signature.ts'
import {
  blobRangeReader,
  listZipEntries,
  MsixManifestError,
  readZipEntry,
  zipEntryReader,
  type RangeReader,
  type ZipEntry,
} from './msix-manifest.ts'

/** A main executable larger than this is refused (reading a deflated one inflates it up to its signature). */
const MAX_EXECUTABLE = 1024 * 1024 * 1024
const BUNDLE = /^((?:[^/]+\/)*?[^/]+\.app)\/Contents\//

/** The outermost `.app` folder among the entries (the shortest path; apps nest helper apps). */
function outermostApp(entries: ZipEntry[]): string | undefined {
  let app: string | undefined
  for (const entry of entries) {
    const found = BUNDLE.exec(entry.name)?.[1]
    if (found && (app === undefined || found.length < app.length)) app = found
  }
  return app
}

/** CFBundleExecutable of an XML property list; `undefined` for a binary one or when absent. */
function bundleExecutable(plist: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(plist)
  const found = /<key>\s*CFBundleExecutable\s*<\/key>\s*<string>([^<]*)<\/string>/.exec(text)?.[1]?.trim()
  return found && !found.includes('/') ? found : undefined
}

async function mainExecutable(
  read: RangeReader,
  size: number,
  entries: ZipEntry[],
  app: string,
): Promise<ZipEntry | string> {
  const plist = await readZipEntry(read, size, [`${app}/Contents/Info.plist`])
  const named = plist ? bundleExecutable(plist.data) : undefined
  const folder = `${app}/Contents/MacOS/`
  if (named) {
    const entry = entries.find((e) => e.name === folder + named)
    return entry ?? `has no ${folder}${named}, the CFBundleExecutable its Info.plist names`
  }
  const files = entries.filter((e) => {
    const rest = e.name.startsWith(folder) ? e.name.slice(folder.length) : ''
    return rest !== '' && !rest.includes('/')
  })
  if (files.length === 1) return files[0]!
  return `has ${files.length} files in ${folder} and no CFBundleExecutable in an XML Info.plist to tell the main executable`
}

/**
 * The signer of the app in the `.zip` stored at `key`; `undefined` when it is not a zip or holds
 * no `.app` (Ferry reads no signer from it).
 */
export async function appZipSigner(blobs: BlobStore, key: string, size: number): Promise<SignerReading | undefined> {
  const read = blobRangeReader(blobs, key)
  let entries: ZipEntry[]
  try {
    entries = await listZipEntries(read, size)
  } catch (error) {
    if (error instanceof MsixManifestError) return undefined
    throw error
  }
  const app = outermostApp(entries)
  if (!app) return undefined
  try {
    const entry = await mainExecutable(read, size, entries, app)
    if (typeof entry === 'string') return { problem: entry }
    if (entry.uncompressed > MAX_EXECUTABLE)
      return { problem: `has a main executable ${entry.name} larger than ${MAX_EXECUTABLE} bytes` }
    const reading = await machoSigner(await zipEntryReader(read, size, entry), entry.uncompressed)
    return 'problem' in reading ? { problem: `${entry.name} ${reading.problem}` } : reading
  } catch (error) {
    if (error instanceof MsixManifestError) return { problem: error.message }
    throw error
  }
}
