import type { ComponentProps } from 'react'
import type { App, Catalogs } from './sandbox-api'
import { UploadForm } from './upload-form'
import { VersionList } from './version-list'

type VersionListProps = ComponentProps<typeof VersionList>

/**
 * The selected app's versions and its upload form (the demo's dashboard and the console's
 * Releases view), or what stands in while there is no app or the apps are loading.
 */
export function AppReleases({
  app,
  appsLoaded,
  versions,
  catalogs,
  run,
  api,
  canEdit,
  canUpload = true,
}: Omit<VersionListProps, 'app'> & {
  app: App | undefined
  appsLoaded: boolean
  catalogs: Catalogs
  canUpload?: boolean
}) {
  return (
    <div className="ferry-dash-main">
      {app ? (
        <>
          <VersionList app={app} versions={versions} run={run} api={api} canEdit={canEdit} />
          {canUpload ? <UploadForm app={app} catalogs={catalogs} run={run} /> : null}
        </>
      ) : appsLoaded ? (
        <p>No app yet: create one.</p>
      ) : (
        <p role="status" className="ferry-demo-loading">
          Loading apps…
        </p>
      )}
    </div>
  )
}
