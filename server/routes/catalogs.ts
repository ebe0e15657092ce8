/** @module The team's catalogs: channels, platforms and architectures (create, list, update, delete). */
import { json, noContent, timestamp, type Ctx, type Handler, type Handlers, type Input, type Schemas, type Services } from '../context.ts'
import { randomId } from '../crypto.ts'
import { currentUser, isUniqueViolation } from '../model.ts'
import { decodeCursor, page } from '../pagination.ts'
import { conflict, notFound } from '../problem.ts'
import type { ArchsTable, ChannelsTable, PlatformsTable } from '../storage/types.ts'

type Table = 'channels' | 'platforms' | 'archs'
type Row = ChannelsTable | PlatformsTable | ArchsTable

const SPEC = {
  channels: { prefix: 'ch', noun: 'channel', column: 'channel_id' },
  platforms: { prefix: 'pl', noun: 'platform', column: 'platform_id' },
  archs: { prefix: 'ar', noun: 'architecture', column: 'arch_id' },
} as const

function toItem(table: Table, row: Row): Schemas['Channel'] | Schemas['Platform'] | Schemas['Arch'] {
  const base = { id: row.id, name: row.name }
  if (table === 'channels') return { ...base, description: (row as ChannelsTable).description, createdAt: row.created_at }
  if (table === 'platforms') return { ...base, updater: (row as PlatformsTable).updater as Schemas['UpdaterFormat'], createdAt: row.created_at }
  return { ...base, createdAt: row.created_at }
}

function catalog(s: Services, table: Table) {
  const { prefix, noun, column } = SPEC[table]
  const find = async (teamId: string, id: string): Promise<Row> => {
    const row = await s.db.selectFrom(table).selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst()
    if (!row) throw notFound(`No ${noun} with id ${id}.`)
    return row as Row
  }
  const duplicate = (name: string) => conflict(`A ${noun} named ${name} already exists in this team.`)

  const create: Handler = async (c: Ctx, input: Input) => {
    const user = currentUser(c.get('user'))
    const body = input.body as { name: string; description?: string; updater?: string }
    const row = {
      id: randomId(prefix),
      team_id: user.teamId,
      name: body.name,
      created_at: timestamp(s.now()),
      ...(table === 'channels' ? { description: body.description ?? '' } : {}),
      ...(table === 'platforms' ? { updater: body.updater ?? 'ferry' } : {}),
    } as Row & { team_id: string }
    try {
      await s.db.insertInto(table).values(row as never).execute()
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate(body.name)
      throw error
    }
    return json(toItem(table, row), 201)
  }

  const list: Handler = async (c, input) => {
    const user = currentUser(c.get('user'))
    const limit = input.query.limit as number
    const cursor = decodeCursor<{ n: string }>(input.query.cursor, (v) => typeof v.n === 'string')
    let q = s.db.selectFrom(table).selectAll().where('team_id', '=', user.teamId)
    if (cursor) q = q.where('name', '>', cursor.n)
    const rows = (await q.orderBy('name').limit(limit + 1).execute()) as Row[]
    return json(page(rows, limit, (r) => toItem(table, r), (r) => ({ n: r.name })))
  }

  const update: Handler = async (c, input) => {
    const user = currentUser(c.get('user'))
    const row = await find(user.teamId, input.path.id as string)
    const body = input.body as { name?: string; description?: string; updater?: string }
    const patch: Record<string, string> = {}
    if (body.name !== undefined) patch.name = body.name
    if (table === 'channels' && body.description !== undefined) patch.description = body.description
    if (table === 'platforms' && body.updater !== undefined) patch.updater = body.updater
    try {
      if (Object.keys(patch).length) await s.db.updateTable(table).set(patch).where('id', '=', row.id).execute()
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate(body.name ?? row.name)
      throw error
    }
    return json(toItem(table, { ...row, ...patch } as Row))
  }

  const remove: Handler = async (c, input) => {
    const user = currentUser(c.get('user'))
    const row = await find(user.teamId, input.path.id as string)
    const used = await s.db.selectFrom('versions').select('id').where(column, '=', row.id).limit(1).executeTakeFirst()
    if (used) throw conflict(`The ${noun} ${row.name} still has versions; delete them first.`)
    await s.db.deleteFrom(table).where('id', '=', row.id).execute()
    return noContent()
  }
  return { create, list, update, remove }
}

type CatalogOps =
  | 'createChannel' | 'listChannels' | 'updateChannel' | 'deleteChannel'
  | 'createPlatform' | 'listPlatforms' | 'updatePlatform' | 'deletePlatform'
  | 'createArch' | 'listArchs' | 'updateArch' | 'deleteArch'

export function catalogHandlers(s: Services): Pick<Handlers, CatalogOps> {
  const ch = catalog(s, 'channels')
  const pl = catalog(s, 'platforms')
  const ar = catalog(s, 'archs')
  return {
    createChannel: ch.create, listChannels: ch.list, updateChannel: ch.update, deleteChannel: ch.remove,
    createPlatform: pl.create, listPlatforms: pl.list, updatePlatform: pl.update, deletePlatform: pl.remove,
    createArch: ar.create, listArchs: ar.list, updateArch: ar.update, deleteArch: ar.remove,
  }
}
