/** @module Apps: create, list, update, delete (with all versions and their files). */
import { json, noContent, timestamp, type Handlers, type Schemas, type Services } from '../context.ts'
import { currentUser, findTeamApp, isUniqueViolation, toApp } from '../model.ts'
import { decodeCursor, page } from '../pagination.ts'
import { visibleApps } from '../permissions.ts'
import { conflict, notFound } from '../problem.ts'

export function appHandlers(s: Services): Pick<Handlers, 'createApp' | 'listApps' | 'updateApp' | 'deleteApp'> {
  return {
    async createApp(c, input) {
      const user = currentUser(c.get('user'))
      const body = input.body as Schemas['AppCreate']
      const now = timestamp(s.now())
      const row = {
        slug: body.slug,
        team_id: user.teamId,
        name: body.name,
        description: body.description ?? '',
        private: body.private ? 1 : 0,
        created_at: now,
        updated_at: now,
      }
      try {
        await s.db.insertInto('apps').values(row).execute()
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An app with slug ${body.slug} already exists.`)
        throw error
      }
      return json(toApp(row), 201, { location: `/v1/apps/${row.slug}` })
    },

    async listApps(c, input) {
      const user = currentUser(c.get('user'))
      const limit = input.query.limit as number
      const cursor = decodeCursor<{ k: string }>(input.query.cursor, (v) => typeof v.k === 'string')
      const visible = visibleApps(user)
      let q = s.db.selectFrom('apps').selectAll().where('team_id', '=', user.teamId)
      if (visible) q = q.where('slug', 'in', visible.size ? [...visible] : [''])
      if (cursor) q = q.where('slug', '>', cursor.k)
      const rows = await q.orderBy('slug').limit(limit + 1).execute()
      return json(page(rows, limit, toApp, (r) => ({ k: r.slug })))
    },

    async updateApp(c, input) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, input.path.app as string)
      const body = input.body as Schemas['AppUpdate']
      const next = {
        ...app,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.private !== undefined ? { private: body.private ? 1 : 0 } : {}),
        updated_at: timestamp(s.now()),
      }
      await s.db.updateTable('apps').set({ name: next.name, description: next.description, private: next.private, updated_at: next.updated_at })
        .where('slug', '=', app.slug).execute()
      return json(toApp(next))
    },

    async deleteApp(c, input) {
      const user = currentUser(c.get('user'))
      const app = await findTeamApp(s, user, input.path.app as string)
      const keys = await s.db.selectFrom('artifacts').innerJoin('versions', 'versions.id', 'artifacts.version_id')
        .select('artifacts.blob_key').where('versions.app_slug', '=', app.slug).execute()
      const deleted = await s.db.deleteFrom('apps').where('slug', '=', app.slug).executeTakeFirst()
      if (Number(deleted.numDeletedRows) === 0) throw notFound(`No app with slug ${app.slug}.`)
      // Rows go first: a crash now leaves orphan files, never rows pointing at missing files.
      for (const { blob_key } of keys) await s.blobs.delete(blob_key)
      return noContent()
    },
  }
}
