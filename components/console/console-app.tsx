import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { AppReleases } from '../demo/app-releases'
import { ProblemView } from '../demo/problem-view'
import { ferryApi, type Problem, type WhoAmI } from '../demo/sandbox-api'
import { TelemetryChart } from '../demo/telemetry-chart'
import { TokenPanel } from '../demo/token-panel'
import { UpdateSimulator } from '../demo/update-simulator'
import { useFerryData, type Run, type Undo } from '../demo/use-ferry-data'
import { AdoptionView } from './adoption-view'
import { AppSettingsView } from './app-settings-view'
import { AuditView } from './audit-view'
import { DraftsView } from './drafts-view'
import { HealthTable } from './health-table'
import { may } from './permissions'
import { TeamPanel } from './team-panel'
import { serverTransport } from './server-transport'
import { loadSession, saveSession, type Session } from './session'
import { SignInForm } from './sign-in-form'
import { WebhooksView } from './webhooks-view'
import { RulesView } from './rules-view'
import { ConsoleShell } from './console-shell'
import { EmptyState } from './empty-state'
import { ADMIN_VIEWS, useView, VIEWS } from './views'

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
    <>
      {session ? (
        <SignedIn session={session} onExpired={() => setExpired(true)} onSignOut={signOut} />
      ) : (
        <main className="fc-signin ferry-dash ferry-console">
          <p className="fc-signin-brand">
            <img src="/console/favicon.svg" alt="" width="32" height="32" />
            <span>Ferry Console</span>
          </p>
          <h1 className="ferry-sr-only">Ferry Console</h1>
          <SignInForm transport={serverTransport} onSignedIn={signedIn} />
        </main>
      )}
      {session && expired ? <SessionExpiredDialog email={session.user.email} onSignedIn={signedIn} /> : null}
    </>
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
      <p id="ferry-expired-title">
        <strong>Your session has expired.</strong> Sign in again to continue; what you typed stays on the page.
      </p>
      <SignInForm transport={serverTransport} onSignedIn={onSignedIn} email={email} />
    </dialog>
  )
}

function SignedIn({
  session,
  onExpired,
  onSignOut,
}: {
  session: Session
  onExpired: () => void
  onSignOut: () => void
}) {
  const api = useMemo(() => ferryApi(serverTransport, session.token), [session.token])
  const onProblem = useCallback(
    (p: Problem) => {
      if (p.status === 401) onExpired()
    },
    [onExpired],
  )
  const data = useFerryData(api, onProblem)
  const app = data.apps.find((a) => a.slug === data.selected)
  const [me, setMe] = useState<WhoAmI>()
  const [meLoaded, setMeLoaded] = useState(false)
  const view = useView()
  useEffect(() => {
    let live = true
    api
      .whoami()
      .then(
        (w) => live && setMe(w),
        () => undefined,
      )
      .finally(() => live && setMeLoaded(true))
    return () => {
      live = false
    }
  }, [api, data.generation])
  const admin = me?.user.role === 'admin'
  const catalogue = (['channels', 'platforms', 'archs'] as const).some((area) => may(me, area, 'create'))
  const canEdit = app ? may(me, 'apps', 'edit', app.slug) : false
  // What the API would refuse this user is not offered (admin-only views for others).
  const shown = VIEWS.filter((v) => admin || !ADMIN_VIEWS.includes(v.id))
  const current = shown.some((v) => v.id === view) ? view : 'releases'
  const title = shown.find((v) => v.id === current)?.title ?? 'Releases'
  useEffect(() => {
    document.title = `${title} · Ferry Console`
  }, [title])
  // The first view appears whole, once the user, the apps and the selected app's versions are in,
  // rather than panel by panel pushing each other down (layout shift).
  const [shown1, setShown1] = useState(false)
  const ready = shown1 || (meLoaded && data.appsLoaded && (!data.selected || data.versions !== undefined))
  useEffect(() => {
    if (ready) setShown1(true)
  }, [ready])
  const at = ready ? current : undefined
  const appView = (render: (a: NonNullable<typeof app>) => ReactNode) =>
    app ? (
      render(app)
    ) : data.appsLoaded ? (
      <EmptyState
        title="No app yet"
        action={
          <a className="ferry-btn ferry-btn-primary" href="#settings">
            Create an app
          </a>
        }
      >
        An app is what your users install. Create one under App settings, then upload a version from the console or with{' '}
        <code>ferry publish</code> in CI.
      </EmptyState>
    ) : (
      <p role="status" className="ferry-demo-loading">
        Loading apps…
      </p>
    )
  return (
    <ConsoleShell
      session={session}
      views={shown}
      current={current}
      apps={data.apps}
      selected={app}
      onSelectApp={data.setSelected}
      versions={data.versions}
      canCreateApp={may(me, 'apps', 'create')}
      onSignOut={onSignOut}
    >
      <div className="ferry-dash-body">
        <div aria-live="polite">
          {data.notice?.kind === 'done' ? <DoneNotice notice={data.notice} run={data.run} /> : null}
        </div>
        {data.notice?.kind === 'problem' ? <ProblemView problem={data.notice.problem} /> : null}
        {!ready ? (
          <p role="status" className="ferry-demo-loading">
            Loading…
          </p>
        ) : null}
        {at === 'releases' ? (
          app || !data.appsLoaded ? (
            <AppReleases
              app={app}
              appsLoaded={data.appsLoaded}
              versions={data.versions}
              catalogs={data.catalogs}
              run={data.run}
              api={api}
              canEdit={canEdit}
              canUpload={app !== undefined && may(me, 'apps', 'upload', app.slug)}
            />
          ) : (
            appView(() => null)
          )
        ) : null}
        {at === 'settings' ? (
          <AppSettingsView
            app={app}
            catalogs={data.catalogs}
            run={data.run}
            onCreated={data.setSelected}
            may={{
              create: may(me, 'apps', 'create'),
              edit: canEdit,
              delete: app !== undefined && may(me, 'apps', 'delete', app.slug),
              catalogue,
            }}
          />
        ) : null}
        {at === 'drafts'
          ? appView((a) => <DraftsView app={a} versions={data.versions} run={data.run} canEdit={canEdit} />)
          : null}
        {at === 'rollouts'
          ? appView((a) =>
              data.versions === undefined ? (
                <p role="status">Loading versions…</p>
              ) : data.versions.length === 0 ? (
                <p>No versions yet.</p>
              ) : (
                <HealthTable api={api} app={a} versions={data.versions} run={data.run} canEdit={canEdit} />
              ),
            )
          : null}
        {at === 'adoption'
          ? appView((a) =>
              data.versions ? (
                <AdoptionView api={api} app={a} versions={data.versions} />
              ) : (
                <p role="status">Loading versions…</p>
              ),
            )
          : null}
        {at === 'rules'
          ? appView((a) => (
              <RulesView api={api} app={a} run={data.run} generation={data.generation} canEdit={canEdit} />
            ))
          : null}
        {at === 'explain' ? (
          <>
            <UpdateSimulator transport={serverTransport} apps={data.apps} catalogs={data.catalogs} api={api} />
            <TelemetryChart api={api} app={data.selected} />
          </>
        ) : null}
        {at === 'webhooks' ? <WebhooksView api={api} run={data.run} generation={data.generation} /> : null}
        {at === 'tokens' ? (
          <TokenPanel api={api} app={data.selected} run={data.run} generation={data.generation} />
        ) : null}
        {at === 'team' ? <TeamPanel api={api} run={data.run} generation={data.generation} /> : null}
        {at === 'audit' ? <AuditView transport={serverTransport} token={session.token} /> : null}
      </div>
    </ConsoleShell>
  )
}

/** What a change did, with Undo where it can be taken back (a pause), as Vercel's and Sentry's toasts do. */
function DoneNotice({ notice, run }: { notice: { text: string; undo?: Undo }; run: Run }) {
  const { undo } = notice
  return (
    <p className="ferry-dash-done">
      {notice.text}
      {undo ? (
        <>
          {' '}
          <button type="button" className="ferry-link-btn" onClick={() => void run(undo.done, undo.action)}>
            Undo
          </button>
        </>
      ) : null}
    </p>
  )
}
