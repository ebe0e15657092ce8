/** @module One artifact: delete it, or download it (public, with a token, or with a signed link). */
import { noContent, type Handlers, type Services } from '../context.ts'
import { hexToBase64 } from '../crypto.ts'
import { currentUser, findTeamApp } from '../model.ts'
import { allows } from '../permissions.ts'
import { HttpProblem, conflict, forbidden, notFound } from '../problem.ts'
import { SECURITY_HEADERS, secured } from '../response-headers.ts'
import { verifySignedPath } from '../signed-links.ts'
import { forUpdate } from '../storage/dialect.ts'

/** Parses a single `bytes=` range; `undefined` means "send the whole file". */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return undefined
  let start: number
  let end: number
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]))
    end = size - 1
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  }
  return start <= end && start < size ? { start, end } : undefined
}

function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

export function artifactHandlers(s: Services): Pick<Handlers, 'deleteArtifact' | 'downloadArtifact'> {
  return {
    async deleteArtifact(c, { path }) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      // Counting the siblings and deleting run in one transaction: two concurrent deletes cannot
      // both see a second file and leave the version with none.
      const target = await s.db.transaction().execute(async (trx) => {
        await forUpdate(trx, trx.selectFrom('versions').select('id').where('id', '=', path.version)).execute()
        const siblings = await trx.selectFrom('artifacts').innerJoin('versions', 'versions.id', 'artifacts.version_id')
          .select(['artifacts.id', 'artifacts.blob_key']).where('versions.id', '=', path.version).where('versions.app_slug', '=', app.slug).execute()
        const found = siblings.find((a) => a.id === path.artifact)
        if (!found) throw notFound(`No artifact ${path.artifact} in version ${path.version} of ${app.slug}.`)
        if (siblings.length === 1) throw conflict('A version keeps at least one artifact; delete the version instead.')
        await trx.deleteFrom('artifacts').where('id', '=', found.id).execute()
        return found
      })
      await s.blobs.delete(target.blob_key)
      return noContent()
    },

    async downloadArtifact(c, { path, query }) {
      const { app: slug, version: versionId, artifact: artifactId } = path
      const row = await s.db.selectFrom('artifacts')
        .innerJoin('versions', 'versions.id', 'artifacts.version_id')
        .innerJoin('apps', 'apps.slug', 'versions.app_slug')
        .select(['artifacts.file_name', 'artifacts.blob_key', 'artifacts.sha256', 'apps.private', 'apps.team_id', 'versions.published'])
        .where('artifacts.id', '=', artifactId).where('versions.id', '=', versionId).where('apps.slug', '=', slug)
        .executeTakeFirst()
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
          throw new HttpProblem('unauthorized', 'This artifact needs a bearer token with apps.download or a signed link.')
        } else if (!allows(user, 'apps.download', slug)) {
          throw forbidden(`This operation needs apps.download for ${slug}.`)
        }
      }
      const size = await s.blobs.size(row.blob_key)
      if (size === null) throw new Error(`blob missing for artifact ${artifactId}`)
      const range = parseRange(c.req.header('range'), size)
      const blob = await s.blobs.get(row.blob_key, range)
      if (!blob) throw new Error(`blob missing for artifact ${artifactId}`)
      const headers: Record<string, string> = {
        'content-type': 'application/octet-stream',
        'content-disposition': contentDisposition(row.file_name),
        'accept-ranges': 'bytes',
        digest: `sha-256=${hexToBase64(row.sha256)}`,
        'content-length': String(range ? range.end - range.start + 1 : size),
        ...SECURITY_HEADERS,
      }
      if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
      return secured(new Response(blob.body, { status: range ? 206 : 200, headers }))
    },
  }
}
