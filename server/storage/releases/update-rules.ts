/**
 * @module An app's holds, pins and targeting rules (`update_rules`): insert, count, list, delete.
 * What they mean is `server/updates/rules.ts`'s.
 */
import type { Db, UpdateRulesTable } from '../../core/storage.ts'

export type UpdateRuleRow = UpdateRulesTable

/** The app's rules, oldest first. */
export function rulesOf(db: Db, slug: string): Promise<UpdateRuleRow[]> {
  return db
    .selectFrom('update_rules')
    .selectAll()
    .where('app_slug', '=', slug)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

export async function countRules(db: Db, slug: string): Promise<number> {
  const row = await db
    .selectFrom('update_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('app_slug', '=', slug)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertRule(db: Db, row: UpdateRuleRow): Promise<void> {
  await db.insertInto('update_rules').values(row).execute()
}

export function findRule(db: Db, slug: string, id: string): Promise<UpdateRuleRow | undefined> {
  return db.selectFrom('update_rules').selectAll().where('app_slug', '=', slug).where('id', '=', id).executeTakeFirst()
}

/** Deletes the rule; whether it existed. */
export async function deleteRule(db: Db, slug: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('update_rules')
    .where('app_slug', '=', slug)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
