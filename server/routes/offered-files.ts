/** @module The offered files as a renderer sees them: URLs for this request, stored signatures' contents. */
import type { Services } from '../http/services.ts'
import type { OfferedFiles } from '../protocols/render.ts'
import { downloadUrl } from '../transfer/download-links.ts'
import { readEdSignature } from '../transfer/signatures.ts'
import type { Target } from '../updates/offer.ts'
import { toArtifact } from './api-objects.ts'

export function offeredFiles(s: Services, base: string, app: Target['app']): OfferedFiles {
  return {
    url: (versionId, file) => downloadUrl(s, base, app, versionId, file.id),
    artifact: (file) => toArtifact(s, base, app, file),
    edSignature: async (file) => (await readEdSignature(s.blobs, file.blob_key))?.signature,
    async text(file) {
      const blob = await s.blobs.get(file.blob_key)
      return blob ? (await new Response(blob.body).text()).trim() : undefined
    },
  }
}
