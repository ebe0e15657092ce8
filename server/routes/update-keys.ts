/** @module Devices per updater key, for deciding when to retire the old key of a rotation. */
import type { Handlers } from '../http/respond.ts'
import type { Services } from '../http/services.ts'
import { currentUser } from '../auth/auth-user.ts'
import { visibleApps } from '../auth/permissions.ts'
import { HttpProblem, notFound } from '../core/problem.ts'
import { findTeamApp } from './api-objects.ts'
import { devicesByUpdateKey } from '../storage/releases/update-key-devices.ts'
import { appKeys } from '../transfer/updater-keys.ts'

export function updateKeyHandlers(s: Services): Pick<Handlers, 'getUpdateKeyDevices'> {
  return {
    async getUpdateKeyDevices(c, { path }, respond) {
      const user = currentUser(c.get('user'))
      const visible = visibleApps(user)
      if (visible && !visible.has(path.app)) throw notFound(`No app with slug ${path.app}.`)
      const app = await findTeamApp(s, user, path.app)
      if (!s.telemetry)
        throw new HttpProblem('telemetry-disabled', 'Telemetry is switched off on this server (FERRY_TELEMETRY=off).')
      await s.telemetry.flush()
      const counts = await devicesByUpdateKey(s.db, app.slug)
      const keys = [
        ...appKeys(app.tauri_public_key, app.tauri_extra_keys).map((k) => ({ updater: 'tauri' as const, ...k })),
        ...appKeys(app.sparkle_public_key, app.sparkle_extra_keys).map((k) => ({ updater: 'sparkle' as const, ...k })),
      ]
      return respond(
        200,
        {
          day: counts.day,
          devices: counts.devices,
          keys: keys.map((k) => ({ ...k, devices: counts.byKey.get(k.key) ?? 0 })),
        },
        { 'cache-control': 'no-store' },
      )
    },
  }
}
