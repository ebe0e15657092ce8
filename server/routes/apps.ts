/** @module Apps: create, list, update, delete (with all versions and their files). */
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { findTeamApp, toApp } from './api-objects.ts'
import { isUniqueViolation } from '../storage/dialect.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { visibleApps } from '../auth/permissions.ts'
import { conflict, notFound, validationProblem, type FieldError } from '../core/problem.ts'
import { parseMinisignPublicKey, parseSparklePublicKey } from '../transfer/signatures.ts'
import { appKeys, keyColumns, keyListProblems } from '../transfer/updater-keys.ts'
import type { AppsTable } from '../core/storage.ts'
import { removeUnreferencedBlobs } from '../storage/blobs/blob-removal.ts'
import { deleteAppListingFiles, insertApp, teamApp, teamAppsPage, updateTeamApp } from '../storage/releases/apps.ts'

/**
 * Slugs name public update URLs, so they are unique on the whole server. A taken slug answers
 * the same whichever team holds it: the answer says the name is taken, never by whom.
 */
export const slugTaken = (slug: string) => conflict(`The slug ${slug} is already taken on this server; choose another.`)

/** An app's editable members as the API names them (public keys only; there are no secrets here). */
function appBefore(row: AppsTable) {
  return {
    name: row.name,
    description: row.description,
    private: row.private === 1,
    tauriPublicKey: row.tauri_public_key,
    sparklePublicKey: row.sparkle_public_key,
    tauriPublicKeys: appKeys(row.tauri_public_key, row.tauri_extra_keys),
    sparklePublicKeys: appKeys(row.sparkle_public_key, row.sparkle_extra_keys),
  }
}

export function appHandlers(s: Services): Pick<Handlers, 'createApp' | 'listApps' | 'updateApp' | 'deleteApp'> {
  return {
    async createApp(c, { body }, respond) {
      const user = currentUser(c.get('user'))
      const now = timestamp(s.now())
      const row = {
        slug: body.slug,
        team_id: user.teamId,
        name: body.name,
        description: body.description ?? '',
        private: body.private ? 1 : 0,
        tauri_public_key: null,
        sparkle_public_key: null,
        tauri_extra_keys: null,
        sparkle_extra_keys: null,
        created_at: now,
        updated_at: now,
      }
      try {
        await commitWrite(s, c, async (trx) => {
          await insertApp(trx, row)
          noteAudit(c, { created: toApp(row) })
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken(body.slug)
        throw error
      }
      return respond(201, toApp(row), { location: `/v1/apps/${row.slug}` })
    },

    async listApps(c, { query }, respond) {
      const user = currentUser(c.get('user'))
      const cursor = decodeCursor(query.cursor, hasString('k'))
      const rows = await teamAppsPage(s.db, user.teamId, visibleApps(user), cursor?.k, query.limit + 1)
      return respond(
        200,
        page(rows, query.limit, toApp, (r) => ({ k: r.slug })),
      )
    },

    async updateApp(c, { path, body }, respond) {
      const user = currentUser(c.get('user'))
      const keyErrors: FieldError[] = []
      if (body.tauriPublicKey != null && !parseMinisignPublicKey(body.tauriPublicKey)) {
        keyErrors.push({
          pointer: '/tauriPublicKey',
          message:
            'is not a minisign public key: expected the base64 `pubkey` of tauri.conf.json (from `tauri signer generate`)',
        })
      }
      if (body.sparklePublicKey != null && !parseSparklePublicKey(body.sparklePublicKey)) {
        keyErrors.push({
          pointer: '/sparklePublicKey',
          message:
            'is not a Sparkle EdDSA public key: expected SUPublicEDKey, base64 of 32 bytes (from `generate_keys`)',
        })
      }
      if (body.tauriPublicKeys)
        keyErrors.push(
          ...keyListProblems(
            body.tauriPublicKeys,
            'tauriPublicKeys',
            (k) => parseMinisignPublicKey(k) !== undefined,
            'a minisign public key',
          ),
        )
      if (body.sparklePublicKeys)
        keyErrors.push(
          ...keyListProblems(
            body.sparklePublicKeys,
            'sparklePublicKeys',
            (k) => parseSparklePublicKey(k) !== undefined,
            'a Sparkle EdDSA public key',
          ),
        )
      for (const [one, list] of [
        ['tauriPublicKey', 'tauriPublicKeys'],
        ['sparklePublicKey', 'sparklePublicKeys'],
      ] as const) {
        if (body[one] !== undefined && body[list] !== undefined)
          keyErrors.push({ pointer: `/${list}`, message: `must not be sent with ${one}: send the whole list` })
      }
      if (keyErrors.length) throw validationProblem(keyErrors)
      const tauriList = body.tauriPublicKeys && keyColumns(body.tauriPublicKeys)
      const sparkleList = body.sparklePublicKeys && keyColumns(body.sparklePublicKeys)
      const row = await commitWrite(s, c, async (trx) => {
        const old = await teamApp(trx, user.teamId, path.app)
        if (old) noteAudit(c, { before: appBefore(old) })
        // Only the members sent are written, so concurrent edits of different fields both land.
        const updated = await updateTeamApp(trx, user.teamId, path.app, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.private !== undefined ? { private: body.private ? 1 : 0 } : {}),
          ...(body.tauriPublicKey !== undefined ? { tauri_public_key: body.tauriPublicKey?.trim() ?? null } : {}),
          ...(body.sparklePublicKey !== undefined ? { sparkle_public_key: body.sparklePublicKey } : {}),
          ...(tauriList ? { tauri_public_key: tauriList.current, tauri_extra_keys: tauriList.extra } : {}),
          ...(sparkleList ? { sparkle_public_key: sparkleList.current, sparkle_extra_keys: sparkleList.extra } : {}),
          updated_at: timestamp(s.now()),
        })
        if (!updated) throw notFound(`No app with slug ${path.app}.`)
        return updated
      })
      return respond(200, toApp(row))
    },

    async deleteApp(c, { path }) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, path.app)
      // The files to remove and the rows are read and deleted together: an upload that lands
      // meanwhile either is deleted with the app or waits for it.
      const keys = await commitWrite(s, c, async (trx) => {
        noteAudit(c, { changes: removedChanges(appBefore(app)) })
        const files = await deleteAppListingFiles(trx, app.slug)
        if (!files) throw notFound(`No app with slug ${app.slug}.`)
        return files
      })
      // Rows go first: a crash now leaves orphan files, never rows pointing at missing files.
      await removeUnreferencedBlobs(s.blobs, keys, s.logger)
      return noContent()
    },
  }
}
