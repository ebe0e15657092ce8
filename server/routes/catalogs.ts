/** @module The team's catalogs: channels, platforms and architectures (create, list, update, delete). */
import { noContent, type Handlers } from '../http/respond.ts'
import { timestamp } from '../core/time.ts'
import { noteAudit } from '../http/writes/audit-hook.ts'
import { commitWrite } from '../http/writes/write-unit.ts'
import { removedChanges } from '../audit/entry.ts'
import type { Db } from '../core/storage.ts'
import type { Ctx } from '../http/context.ts'
import type { Schemas } from '../http/spec.ts'
import type { Services } from '../http/services.ts'
import { randomId } from '../core/crypto.ts'
import { currentUser } from '../auth/auth-user.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../storage/dialect.ts'
import { decodeCursor, hasString, page } from '../http/pagination.ts'
import { conflict, notFound } from '../core/problem.ts'
import type { ArchsTable, ChannelsTable, PlatformsTable } from '../core/storage.ts'
import {
  archs,
  catalogEntryInUse,
  channels,
  deleteCatalogEntry,
  findCatalogEntry,
  platforms,
  type CatalogTable,
} from '../storage/releases/catalogs.ts'

type Table = CatalogTable
const NOUN = { channels: 'channel', platforms: 'platform', archs: 'architecture' } as const
const PREFIX = { channels: 'ch', platforms: 'pl', archs: 'ar' } as const

const toChannel = (r: ChannelsTable): Schemas['Channel'] => ({
  id: r.id,
  name: r.name,
  description: r.description,
  createdAt: r.created_at,
})
const toPlatform = (r: PlatformsTable): Schemas['Platform'] => ({
  id: r.id,
  name: r.name,
  updater: r.updater,
  createdAt: r.created_at,
})
const toArch = (r: ArchsTable): Schemas['Arch'] => ({ id: r.id, name: r.name, createdAt: r.created_at })

type CatalogOps =
  | 'createChannel'
  | 'listChannels'
  | 'updateChannel'
  | 'deleteChannel'
  | 'createPlatform'
  | 'listPlatforms'
  | 'updatePlatform'
  | 'deletePlatform'
  | 'createArch'
  | 'listArchs'
  | 'updateArch'
  | 'deleteArch'

export function catalogHandlers(s: Services): Pick<Handlers, CatalogOps> {
  const duplicate = (table: Table, name: string) =>
    conflict(`A ${NOUN[table]} named ${name} already exists in this team.`)
  const missing = (table: Table, id: string) => notFound(`No ${NOUN[table]} with id ${id}.`)

  /** Runs a write; a name already taken in the team is a 409 naming it. */
  async function unique<T>(table: Table, name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (isUniqueViolation(error) && name !== undefined) throw duplicate(table, name)
      throw error
    }
  }

  const base = (c: Ctx, table: Table, name: string) => ({
    id: randomId(PREFIX[table]),
    team_id: currentUser(c.get('user')).teamId,
    name,
    created_at: timestamp(s.now()),
  })

  /** One page of a catalog ordered by name; `fetch` runs the table's own typed query. */
  async function listPage<R extends { name: string }, I>(
    cursorText: string | undefined,
    limit: number,
    fetch: (after: string, count: number) => Promise<R[]>,
    toItem: (r: R) => I,
  ) {
    const cursor = decodeCursor(cursorText, hasString('n'))
    // Names are never empty, so '' starts at the first one.
    return page(await fetch(cursor?.n ?? '', limit + 1), limit, toItem, (r) => ({ n: r.name }))
  }

  /** Deletes an entry no version uses, in one transaction so an upload cannot slip in between. */
  async function remove(c: Ctx, table: Table, id: string): Promise<Response> {
    const teamId = currentUser(c.get('user')).teamId
    try {
      await commitWrite(s, c, async (trx) => {
        const row = await findCatalogEntry(trx, table, teamId, id)
        if (!row) throw missing(table, id)
        noteAudit(c, { changes: removedChanges({ name: row.name }) })
        if (await catalogEntryInUse(trx, table, row.id))
          throw conflict(`The ${NOUN[table]} ${row.name} still has versions; delete them first.`)
        await deleteCatalogEntry(trx, table, row.id)
      })
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw conflict(`The ${NOUN[table]} ${id} still has versions; delete them first.`)
      throw error
    }
    return noContent()
  }

  const teamOf = (c: Ctx) => currentUser(c.get('user')).teamId

  /** Inserts an entry with the request's audit entry; `item` is the entry as the answer shows it. */
  const created = (c: Ctx, item: unknown, insert: (trx: Db) => Promise<unknown>) =>
    commitWrite(s, c, async (trx) => {
      await insert(trx)
      noteAudit(c, { created: item })
    })

  /**
   * Updates an entry with the request's audit entry, which holds each sent member before and
   * after. `write` runs only when a member was sent; otherwise the row is read back.
   */
  async function edit<R extends { name: string }>(
    c: Ctx,
    table: Table,
    id: string,
    body: { name?: string },
    changed: boolean,
    read: (trx: Db) => Promise<R | undefined>,
    write: (trx: Db) => Promise<R | undefined>,
    before: (row: R) => Record<string, unknown>,
  ): Promise<R> {
    const row = await unique(table, body.name, () =>
      commitWrite(s, c, async (trx) => {
        const old = await read(trx)
        if (!old) throw missing(table, id)
        noteAudit(c, { before: before(old) })
        return changed ? write(trx) : old
      }),
    )
    if (!row) throw missing(table, id)
    return row
  }

  return {
    async createChannel(c, { body }, respond) {
      const row = { ...base(c, 'channels', body.name), description: body.description ?? '' }
      await unique('channels', body.name, () => created(c, toChannel(row), (trx) => channels.insert(trx, row)))
      return respond(201, toChannel(row))
    },
    async createPlatform(c, { body }, respond) {
      const row = { ...base(c, 'platforms', body.name), updater: body.updater ?? 'ferry' }
      await unique('platforms', body.name, () => created(c, toPlatform(row), (trx) => platforms.insert(trx, row)))
      return respond(201, toPlatform(row))
    },
    async createArch(c, { body }, respond) {
      const row = base(c, 'archs', body.name)
      await unique('archs', body.name, () => created(c, toArch(row), (trx) => archs.insert(trx, row)))
      return respond(201, toArch(row))
    },

    async listChannels(c, { query }, respond) {
      return respond(
        200,
        await listPage(
          query.cursor,
          query.limit,
          (after, count) => channels.page(s.db, teamOf(c), after, count),
          toChannel,
        ),
      )
    },
    async listPlatforms(c, { query }, respond) {
      return respond(
        200,
        await listPage(
          query.cursor,
          query.limit,
          (after, count) => platforms.page(s.db, teamOf(c), after, count),
          toPlatform,
        ),
      )
    },
    async listArchs(c, { query }, respond) {
      return respond(
        200,
        await listPage(query.cursor, query.limit, (after, count) => archs.page(s.db, teamOf(c), after, count), toArch),
      )
    },

    async updateChannel(c, { path, body }, respond) {
      const changes = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      }
      const row = await edit(
        c,
        'channels',
        path.id,
        body,
        Object.keys(changes).length > 0,
        (trx) => channels.find(trx, teamOf(c), path.id),
        (trx) => channels.update(trx, teamOf(c), path.id, changes),
        (old) => ({ name: old.name, description: old.description }),
      )
      return respond(200, toChannel(row))
    },
    async updatePlatform(c, { path, body }, respond) {
      const changes = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.updater !== undefined ? { updater: body.updater } : {}),
      }
      const row = await edit(
        c,
        'platforms',
        path.id,
        body,
        Object.keys(changes).length > 0,
        (trx) => platforms.find(trx, teamOf(c), path.id),
        (trx) => platforms.update(trx, teamOf(c), path.id, changes),
        (old) => ({ name: old.name, updater: old.updater }),
      )
      return respond(200, toPlatform(row))
    },
    async updateArch(c, { path, body }, respond) {
      const { name } = body
      const row = await edit(
        c,
        'archs',
        path.id,
        body,
        name !== undefined,
        (trx) => archs.find(trx, teamOf(c), path.id),
        (trx) => archs.update(trx, teamOf(c), path.id, { name }),
        (old) => ({ name: old.name }),
      )
      return respond(200, toArch(row))
    },

    deleteChannel: (c, { path }) => remove(c, 'channels', path.id),
    deletePlatform: (c, { path }) => remove(c, 'platforms', path.id),
    deleteArch: (c, { path }) => remove(c, 'archs', path.id),
  }
}
