/** @module Version rows with their catalog names and the app's privacy, as routes and the update check read them. */
import type { Selectable } from 'kysely'
import type { Db, VersionsTable } from './types.ts'

/** A version as `versionQuery` selects it: catalog names instead of ids, plus the app's privacy. */
export type VersionRow = Omit<
  Selectable<VersionsTable>,
  'channel_id' | 'platform_id' | 'arch_id' | 'version_key' | 'trusted_keys'
> & {
  channel: string
  platform: string
  arch: string
  app_private: number
}

/** Versions joined with their catalog names and app privacy; callers add filters. */
export function versionQuery(db: Db) {
  return versionsWithCatalogNames(db)
    .innerJoin('apps', 'apps.slug', 'v.app_slug')
    .select([
      'v.id',
      'v.app_slug',
      'v.version',
      'c.name as channel',
      'p.name as platform',
      'a.name as arch',
      'v.changelog',
      'v.published',
      'v.critical',
      'v.intermediate',
      'v.rollout_percentage',
      'v.created_at',
      'v.published_at',
      'v.minimum_system_version',
      'v.seq',
      'apps.private as app_private',
      'v.ramp_steps',
      'v.ramp_started_at',
      'v.ramp_paused_seconds',
      'v.paused_at',
      'v.pause_reason',
      'v.pause_automatic',
      'v.pulled_at',
      'v.pull_reason',
      'v.health_max_failure_ratio',
      'v.health_min_reports',
      'v.health_min_addresses',
      'v.health_max_reports_per_address',
      'v.health_since',
      'v.signer_read',
      'v.signer',
      'v.signer_change_note',
      'v.signer_previous',
      'v.ramp_gate',
      'v.gate_open',
      'v.gate_closed_seconds',
      'v.update_key',
    ])
}

/** Versions (`v`) joined with their channel (`c`), platform (`p`) and architecture (`a`); callers select and filter. */
export function versionsWithCatalogNames(db: Db) {
  return db
    .selectFrom('versions as v')
    .innerJoin('channels as c', 'c.id', 'v.channel_id')
    .innerJoin('platforms as p', 'p.id', 'v.platform_id')
    .innerJoin('archs as a', 'a.id', 'v.arch_id')
}
