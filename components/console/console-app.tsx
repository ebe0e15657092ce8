import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { AppPanel } from '../demo/app-panel'
import { ProblemView } from '../demo/problem-view'
import { ferryApi, type Problem, type WhoAmI } from '../demo/sandbox-api'
import { TelemetryChart } from '../demo/telemetry-chart'
import { TokenPanel } from '../demo/token-panel'
import { UpdateSimulator } from '../demo/update-simulator'
import { UploadForm } from '../demo/upload-form'
import { useFerryData } from '../demo/use-ferry-data'
import { VersionList } from '../demo/version-list'
import { AuditView } from './audit-view'
import { CatalogPanel } from './catalog-panel'
import { may } from './permissions'
import { RolloutEditor } from './rollout-editor'
import { TeamPanel } from './team-panel'
import { serverTransport } from './server-transport'
import { loadSession, saveSession, type Session } from './session'
import { SignInForm } from './sign-in-form'


/** Ferry Console: the /demo dashboard's components, over the real server's API. */
export function ConsoleApp() {
  const [session, setSession] = useState<Session | undefined>(loadSession)
  const [expired, setExpired] = useState(false)
  const signedIn = (s: Session) => {
    saveSession(s)
    setSession(s)
    setExpired(false)
  }
  const signOut = () => {
    saveSession(undefined)
    setSession(undefined)
  }
  return (
    <main className="ferry-dash ferry-console">
      <div className="ferry-dash-head">
        <h1>Ferry Console</h1>
        {session ? (
          <p className="ferry-console-who">
            {session.user.email} ({session.user.role}) · {session.team.name}{' '}
            <button type="button" className="ferry-btn" onClick={signOut}>Sign out</button>
          </p>
        ) : null}
      </div>
      {session ? <SignedIn session={session} onExpired={() => setExpired(true)} /> : <SignInForm transport={serverTransport} onSignedIn={signedIn} />}
      {session && expired ? <SessionExpiredDialog email={session.user.email} onSignedIn={signedIn} /> : null}
    </main>
  )
}

/** A 401 mid-work: sign in again over the page, so nothing typed underneath is lost. */
function SessionExpiredDialog({ email, onSignedIn }: { email: string; onSignedIn: (s: Session) => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal()
  }, [])
  return (
    <dialog ref={dialog} className="ferry-console-dialog" aria-labelledby="ferry-expired-title">
      <p id="ferry-expired-title"><strong>Your session has expired.</strong> Sign in again to continue; what you typed stays on the page.</p>
      <SignInForm transport={serverTransport} onSignedIn={onSignedIn} email={email} />
    </dialog>
  )
}

function SignedIn({ session, onExpired }: { session: Session; onExpired: () => void }) {
  const api = useMemo(() => ferryApi(serverTransport, session.token), [session.token])
  const onProblem = useCallback((p: Problem) => {
    if (p.status === 401) onExpired()
  }, [onExpired])
  const data = useFerryData(api, onProblem)
  const app = data.apps.find((a) => a.slug === data.selected)
  const [me, setMe] = useState<WhoAmI>()
  useEffect(() => {
    let live = true
    api.whoami().then((w) => live && setMe(w), () => undefined)
    return () => {
      live = false
    }
  }, [api, data.generation])
  const admin = me?.user.role === 'admin'
  const catalogue = (['channels', 'platforms', 'archs'] as const).some((area) => may(me, area, 'create'))
  return (
    <div className="ferry-dash-body">
      <div aria-live="polite">{data.notice?.kind === 'done' ? <p className="ferry-dash-done">{data.notice.text}</p> : null}</div>
      {data.notice?.kind === 'problem' ? <ProblemView problem={data.notice.problem} /> : null}
      <div className="ferry-dash-grid">
        <div className="ferry-dash-apps">
          <AppPanel apps={data.apps} selected={data.selected} onSelect={data.setSelected} run={data.run}
            canCreate={may(me, 'apps', 'create')} canDelete={may(me, 'apps', 'delete', data.selected)} />
          {catalogue ? <CatalogPanel catalogs={data.catalogs} run={data.run} /> : null}
        </div>
        <div className="ferry-dash-main">
          {app ? (
            <>
              <VersionList app={app} versions={data.versions} run={data.run} api={api} canEdit={may(me, 'apps', 'edit', app.slug)} />
              {data.versions?.length && may(me, 'apps', 'edit', app.slug) ? <RolloutEditor app={app} versions={data.versions} run={data.run} /> : null}
              {may(me, 'apps', 'upload', app.slug) ? <UploadForm app={app} catalogs={data.catalogs} run={data.run} /> : null}
            </>
          ) : data.appsLoaded ? (
            <p>No app yet: create one.</p>
          ) : (
            <p role="status" className="ferry-demo-loading">Loading apps…</p>
          )}
        </div>
      </div>
      <UpdateSimulator transport={serverTransport} apps={data.apps} catalogs={data.catalogs} api={api} />
      <TelemetryChart api={api} app={data.selected} />
      <TokenPanel api={api} app={data.selected} run={data.run} generation={data.generation} />
      {admin ? <TeamPanel api={api} run={data.run} generation={data.generation} /> : null}
      <AuditView transport={serverTransport} token={session.token} />
    </div>
  )
}
