import type { SandboxClient } from './sandbox-loader'
import { AppPanel } from './app-panel'
import { AppReleases } from './app-releases'
import { ProblemView } from './problem-view'
import { TelemetryChart } from './telemetry-chart'
import { TokenPanel } from './token-panel'
import { UpdateSimulator } from './update-simulator'
import { useDashboardData, type Persistence } from './use-dashboard-data'

function persistenceText(p: Persistence, restored: boolean, resetDone: boolean): string {
  if (resetDone || p === 'reset') return 'Sandbox reset to the demo data.'
  if (p === 'saved') return 'All changes saved in this browser.'
  if (p !== 'unsaved')
    return `Changes could not be saved in this browser (${p.failed}); they last until you leave the page.`
  return restored ? 'Sandbox ready: restored from this browser.' : 'Sandbox ready with the demo data.'
}

export function DashboardBody({
  sandbox,
  resetting,
  resetDone,
}: {
  sandbox: SandboxClient
  resetting: boolean
  resetDone: boolean
}) {
  const data = useDashboardData(sandbox)
  const app = data.apps.find((a) => a.slug === data.selected)
  return (
    <div className="ferry-dash-body">
      <p role="status" className="ferry-dash-status">
        {resetting
          ? 'Resetting the sandbox…'
          : !data.api
            ? 'Signing in…'
            : persistenceText(data.persistence, sandbox.restored, resetDone)}
      </p>
      <div aria-live="polite">
        {data.notice?.kind === 'done' ? <p className="ferry-dash-done">{data.notice.text}</p> : null}
      </div>
      {data.notice?.kind === 'problem' ? <ProblemView problem={data.notice.problem} /> : null}
      <div className="ferry-dash-grid">
        <AppPanel apps={data.apps} selected={data.selected} onSelect={data.setSelected} run={data.run} />
        <AppReleases
          app={app}
          appsLoaded={data.appsLoaded}
          versions={data.versions}
          catalogs={data.catalogs}
          run={data.run}
          api={data.api}
        />
      </div>
      <UpdateSimulator transport={data.transport} apps={data.apps} catalogs={data.catalogs} api={data.api} />
      <TelemetryChart api={data.api} app={data.selected} />
      <TokenPanel api={data.api} app={data.selected} run={data.run} generation={data.generation} />
    </div>
  )
}
