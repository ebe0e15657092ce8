/**
 * @module The upload's hook for apt and rpm repositories: each `.deb` or `.rpm` of an upload is
 * read (control file, RPM header) once, here, so building an index never opens a package. A file
 * Ferry cannot read is still stored and offered by the other updaters (uploads accepted before
 * repositories existed stay accepted), left out of the repositories, and logged with the reason.
 */
import type { Insertable } from 'kysely'
import type { Services } from '../http/services.ts'
import type { ReceivedFile } from '../transfer/multipart-upload.ts'
import type { LinuxPackagesTable } from '../core/storage.ts'
import { PackageProblem, readDebControl, readRpmMetadata, type ReadRange } from '../transfer/linux-packages.ts'

/** Reads `length` bytes at `offset` of a stored blob (fewer at its end). */
function blobRange(s: Services, key: string, size: number): ReadRange {
  return async (offset, length) => {
    if (offset >= size || length <= 0) return new Uint8Array(0)
    const blob = await s.blobs.get(key, { start: offset, end: Math.min(size, offset + length) - 1 })
    if (!blob) throw new Error(`blob ${key} vanished while its package was read`)
    return new Uint8Array(await new Response(blob.body).arrayBuffer())
  }
}

/** The `linux_packages` rows of the upload's readable `.deb` and `.rpm` files. */
export async function readLinuxPackages(
  s: Services,
  app: string,
  versionId: string,
  files: readonly ReceivedFile[],
): Promise<Insertable<LinuxPackagesTable>[]> {
  const rows: Insertable<LinuxPackagesTable>[] = []
  const skip = (file: string, reason: string) =>
    s.logger.warn({ app, version: versionId, file, reason }, 'linux package not indexed')
  for (const file of files) {
    const kind = /\.deb$/i.test(file.name) ? 'deb' : /\.rpm$/i.test(file.name) ? 'rpm' : undefined
    if (!kind) continue
    const read = blobRange(s, file.blobKey, file.size)
    try {
      if (kind === 'deb') {
        const control = await readDebControl(read, s.decompress)
        rows.push({
          artifact_id: file.blobKey,
          version_id: versionId,
          kind,
          name: control.name,
          arch: control.arch,
          metadata: JSON.stringify(control.fields),
        })
      } else {
        const meta = await readRpmMetadata(read, file.size)
        rows.push({
          artifact_id: file.blobKey,
          version_id: versionId,
          kind,
          name: meta.name,
          arch: meta.arch,
          metadata: JSON.stringify(meta),
        })
      }
    } catch (error) {
      // A RangeError: a length or offset in the package points outside what was read.
      if (error instanceof PackageProblem) skip(file.name, error.message)
      else if (error instanceof RangeError) skip(file.name, `is not a readable ${kind} package (${error.message})`)
      else throw error
    }
  }
  return rows
}
