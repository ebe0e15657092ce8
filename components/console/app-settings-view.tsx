import { useState } from 'react'
import { CreateAppForm } from '../demo/app-panel'
import { ConfirmDialog } from '../demo/confirm-dialog'
import type { App, Catalogs } from '../demo/sandbox-api'
import { AppEditForm } from './app-edit-form'
import { CatalogPanel } from './catalog-panel'

import type { Run } from '../demo/use-ferry-data'

/**
 * Apps and the catalogue, apart from the releases: the selected app's name, description and
 * privacy, deleting it (the slug typed to confirm), a new app, and the team's channels, platforms
 * and architectures. Each part shows only if the API would allow it to this user.
 */
export function AppSettingsView({
  app,
  catalogs,
  run,
  onCreated,
  may,
}: {
  app: App | undefined
  catalogs: Catalogs
  run: Run
  onCreated: (slug: string) => void
  may: { create: boolean; edit: boolean; delete: boolean; catalogue: boolean }
}) {
  const [deleting, setDeleting] = useState(false)
  const nothing = !may.create && !may.catalogue && !(app && (may.edit || may.delete))
  return (
    <div className="fc-settings">
      {nothing ? <p>You may not change apps or the catalogue; an admin can grant it under Team.</p> : null}
      {app && may.edit ? <AppEditForm key={`${app.slug}-${app.updatedAt}`} app={app} run={run} /> : null}
      {may.create ? <CreateAppForm run={run} onCreated={onCreated} Heading="h2" /> : null}
      {may.catalogue ? <CatalogPanel catalogs={catalogs} run={run} /> : null}
      {app && may.delete ? (
        <section className="fc-danger-zone" aria-labelledby="fc-delete-app-title">
          <h2 id="fc-delete-app-title">Delete {app.name}</h2>
          <p>Deletes the app, every version and every file of it. Devices asking for updates get none.</p>
          <button type="button" className="ferry-btn ferry-btn-danger" onClick={() => setDeleting(true)}>
            Delete app {app.slug}…
          </button>
        </section>
      ) : null}
      {app && deleting ? (
        <ConfirmDialog
          title={`Delete ${app.name}?`}
          damage={<p>Every version and file of {app.slug} goes for good; this cannot be undone.</p>}
          typed={app.slug}
          action="Delete app"
          onConfirm={() => run(`Deleted app ${app.slug}.`, (api) => api.deleteApp(app.slug))}
          onClose={() => setDeleting(false)}
        />
      ) : null}
    </div>
  )
}
