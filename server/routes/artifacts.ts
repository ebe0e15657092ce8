/** @module One artifact: delete it, or download it (public, with a token, or with a signed link). */
import { downloadResponse } from '../transfer/artifact-download.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { findTeamApp } from './api-objects.ts'
import { allows } from '../auth/permissions.ts'
import { HttpProblem, conflict, forbidden, notFound } from '../core/problem.ts'
import { verifySignedPath } from '../auth/signed-links.ts'
import { removeUnreferencedBlobs } from '../storage/blobs/blob-removal.ts'
import { artifactToDownload, deleteArtifactRow, lockedVersionFiles } from '../storage/releases/artifacts.ts'

export function artifactHandlers(s: Services): Pick<Handlers, 'deleteArtifact' | 'downloadArtifact'> {
  return {
    async deleteArtifact(c, { path }) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      // Counting the siblings and deleting run in one transaction: two concurrent deletes cannot
      // both see a second file and leave the version with none.
      const target = await commitWrite(s, c, async (trx) => {
        const siblings = await lockedVersionFiles(trx, app.slug, path.version)
        const found = siblings.find((a) => a.id === path.artifact)
        if (!found) throw notFound(`No artifact ${path.artifact} in version ${path.version} of ${app.slug}.`)
        if (siblings.length === 1) throw conflict('A version keeps at least one artifact; delete the version instead.')
        await deleteArtifactRow(trx, found.id)
        noteAudit(c, { changes: removedChanges({ fileName: found.file_name }) })
        return found
      })
      await removeUnreferencedBlobs(s.blobs, [target.blob_key], s.logger)
      return noContent()
    },

    async downloadArtifact(c, { path, query }) {
      const { app: slug, version: versionId, artifact: artifactId } = path
      const row = await artifactToDownload(s.db, slug, versionId, artifactId)
      if (!row) throw notFound(`No artifact ${artifactId} in version ${versionId} of ${slug}.`)
      const user = c.get('user')
      if (user && user.teamId !== row.team_id && (row.private === 1 || row.published === 0)) {
        throw notFound(`No artifact ${artifactId} in version ${versionId} of ${slug}.`)
      }
      // Private apps and drafts need a token with apps.download or a signed link.
      if (row.private === 1 || row.published === 0) {
        const { expires, signature } = query
        if (expires !== undefined && signature !== undefined) {
          if (!(await verifySignedPath(s.config.jwtSecret, c.req.path, expires, signature, s.now()))) {
            throw forbidden('The signed link is invalid or has expired; ask the update check for a new one.')
          }
        } else if (!user) {
          throw new HttpProblem(
            'unauthorized',
            'This artifact needs a bearer token with apps.download or a signed link.',
          )
        } else if (!allows(user, 'apps.download', slug)) {
          throw forbidden(`This operation needs apps.download for ${slug}.`)
        }
      }
      const range = c.req.header('range')
      const res = await downloadResponse(
        s.blobs,
        {
          id: artifactId,
          fileName: row.file_name,
          blobKey: row.blob_key,
          sha256: row.sha256,
          size: row.size,
          isPublic: row.private === 0 && row.published === 1,
        },
        { range, ifNoneMatch: c.req.header('if-none-match'), accelPrefix: s.config.accelRedirectPrefix },
      )
      // Whole files only (a ranged resume or a 304 is not another download); in memory, written in batches.
      if (res.status === 200 || (res.status === 302 && range === undefined)) s.downloads.count(versionId)
      return res
    },
  }
}
