/**
 * @module An app's TUF repository over HTTP: metadata files for any client (public apps only, as
 * the artifacts they name must be downloadable without a token), and the team's signed root and
 * targets files in. The checks and the server's signing live in server/tuf/.
 */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { notFound } from '../core/problem.ts'
import { secured, withSecurityHeaders } from '../http/security-headers.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { findRepositoryApp } from '../storage/releases/linux-repositories.ts'
import type { TufRepository } from '../tuf/repository.ts'
import { currentUser } from '../auth/auth-user.ts'
import { teamApp } from '../storage/releases/apps.ts'

const VERSIONED = /^[1-9][0-9]*\./

export function tufHandlers(s: Services): Pick<Handlers, 'getTufMetadata' | 'publishTufMetadata'> {
  function repository(): TufRepository {
    if (!s.tuf) throw notFound('This Ferry signs no TUF metadata: the in-browser sandbox has no TUF signer.')
    return s.tuf
  }

  return {
    async getTufMetadata(_c, { path }) {
      const tuf = repository()
      const app = await findRepositoryApp(s.db, path.app)
      if (!app || app.private === 1)
        throw notFound(`No public app ${path.app}: signed metadata is served for public apps only.`)
      const body =
        path.file === 'online-key.json' ? JSON.stringify(await tuf.onlineKey()) : await tuf.file(app.slug, path.file)
      if (body === undefined)
        throw notFound(
          `${app.slug} has no TUF file ${path.file}: its team has not stored one (ferry tuf init, ferry publish --tuf-key).`,
        )
      return secured(
        new Response(body, {
          status: 200,
          headers: withSecurityHeaders({
            'content-type': 'application/json',
            'cache-control': VERSIONED.test(path.file) ? 'public, max-age=31536000, immutable' : 'no-cache',
          }),
        }),
      )
    },

    async publishTufMetadata(c, { path, body }, respond) {
      const tuf = repository()
      // Made and stored outside the write, so a write that rolls back keeps the key it signed with.
      await tuf.onlineKey()
      const stored = await commitWrite(s, c, async (trx) => {
        const app = await teamApp(trx, currentUser(c.get('user')).teamId, path.app)
        if (!app) throw notFound(`No app with slug ${path.app}.`)
        if (path.file === 'root.json') return { role: 'root' as const, ...(await tuf.acceptRoot(trx, app.slug, body)) }
        return { role: 'targets' as const, ...(await tuf.acceptTargets(trx, app.slug, body)) }
      })
      return respond(200, stored)
    },
  }
}
