/**
 * The Try it panel of an operation page: the request prefilled from the contract's examples,
 * sent to the sandbox in this browser (the one /demo uses, with its saved state) or to the
 * reader's server; the answer with its status, headers, time and body, checked against the
 * documented response. A login or token holds for the browser session, on every page.
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react'
import type { TryItRequest } from '../../../lib/codegen/model'
import { DEMO_LOGIN } from '../../../server/demo/seed.ts'
import { SANDBOX_ORIGIN, loadSandbox } from '../../demo/sandbox-loader'
import { InlineCode } from '../inline-code'
import { buildRequest, initialDraft, paramKey, type Draft } from './build-request'
import { checkResponse, type Check } from './check-response'
import { send, unreachable, type Answer } from './send'
import { sandboxValues, type SandboxValues } from './sandbox-examples'
import { dropSandboxToken, logOutOfSandbox, sandboxGet, sandboxToken } from './sandbox-session'
import { credentialsKey, session, updateSession, useTryItSession, type TargetKind, type TryItSession } from './session'
import { readShared, sharedDraft, toShared, writeShared } from './shared-state'
import { contractBugUrl } from '../../../lib/feedback/issue-links'
import { pageContext } from '../../page-tools/page-context'

type Result =
  | { state: 'sending'; line: string }
  | { state: 'answered'; line: string; answer: Answer; check: Check }
  | { state: 'not-sent'; errors: string[] }
  | { state: 'no-answer'; line: string; message: string }

/** Reason phrases, for answers that carry none (the sandbox's, HTTP/2's). */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

const baseOf = (s: TryItSession) => (s.target === 'sandbox' ? SANDBOX_ORIGIN : s.serverUrl.replace(/\/+$/, ''))
const EXAMPLE_FILE_TEXT = "An example file sent by Ferry's Try it panel.\n"

function Field({ label, hint, children }: { label: ReactNode; hint?: ReactNode; children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <div className="ferry-try-it-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <small>{hint}</small>}
    </div>
  )
}

function TargetPicker({ s }: { s: TryItSession }) {
  const name = useId()
  const pick = (target: TargetKind) => updateSession((old) => ({ ...old, target }))
  return (
    <fieldset className="ferry-try-it-target">
      <legend>Send to</legend>
      <label>
        <input type="radio" name={name} checked={s.target === 'sandbox'} onChange={() => pick('sandbox')} /> The sandbox
        in this browser
      </label>
      <label>
        <input type="radio" name={name} checked={s.target === 'server'} onChange={() => pick('server')} /> Your server
      </label>
      {s.target === 'server' && (
        <Field
          label="Server URL"
          hint={`It must allow this site's origin: FERRY_CORS_ORIGINS=${typeof window === 'undefined' ? '' : window.location.origin}`}
        >
          {(id) => (
            <input
              id={id}
              type="url"
              value={s.serverUrl}
              onChange={(e) => updateSession((old) => ({ ...old, serverUrl: e.target.value }))}
            />
          )}
        </Field>
      )}
    </fieldset>
  )
}

interface SessionBody {
  token: string
  user?: { email?: string }
}
const isSessionBody = (x: unknown): x is SessionBody =>
  typeof x === 'object' && x !== null && typeof (x as { token?: unknown }).token === 'string'

function Authorization({ s, optional }: { s: TryItSession; optional: boolean }) {
  const key = credentialsKey(s)
  const held = s.credentials[key]
  const demo = s.target === 'sandbox'
  const [email, setEmail] = useState<string>(demo ? DEMO_LOGIN.email : '')
  const [password, setPassword] = useState<string>(demo ? DEMO_LOGIN.password : '')
  const [pasted, setPasted] = useState('')
  const [message, setMessage] = useState('')
  const remember = (token: string, who: string) =>
    updateSession((old) => ({
      ...old,
      ...(demo ? { sandboxLoggedOut: false } : {}),
      credentials: { ...old.credentials, [key]: { token, who } },
    }))

  async function logIn(event: FormEvent) {
    event.preventDefault()
    setMessage('Logging in…')
    const url = `${baseOf(s)}/v1/auth/login`
    try {
      const answer = await send(s.target, url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      if (answer.status === 200 && isSessionBody(answer.json)) {
        remember(answer.json.token, answer.json.user?.email ?? email)
        setMessage('')
      } else {
        const detail =
          typeof answer.json === 'object' && answer.json !== null
            ? (answer.json as { detail?: unknown; title?: unknown })
            : {}
        setMessage(`Login failed: ${answer.status} ${String(detail.detail ?? detail.title ?? answer.statusText)}`)
      }
    } catch (error) {
      setMessage(unreachable(s.target, url, error))
    }
  }

  if (!held && demo && !s.sandboxLoggedOut) {
    return (
      <div className="ferry-try-it-auth">
        <p role="status">Signing in to the sandbox as the demo team admin, {DEMO_LOGIN.email}…</p>
      </div>
    )
  }
  if (held) {
    return (
      <div className="ferry-try-it-auth">
        <p>
          Authorized as <strong>{held.who}</strong> on {demo ? 'the sandbox' : s.serverUrl}, for every page in this tab.
        </p>
        <p>
          <button
            type="button"
            className="ferry-button-secondary"
            onClick={() =>
              demo
                ? logOutOfSandbox()
                : updateSession((old) => ({
                    ...old,
                    credentials: Object.fromEntries(Object.entries(old.credentials).filter(([k]) => k !== key)),
                  }))
            }
          >
            Log out
          </button>
        </p>
      </div>
    )
  }
  return (
    <div className="ferry-try-it-auth">
      <p>
        {optional ? 'A token is optional here.' : 'This operation needs a bearer token.'}{' '}
        {demo
          ? 'You logged out of the sandbox: requests go without a token until you log in again.'
          : 'Log in once; the token then holds on every page of this tab.'}
      </p>
      <form className="ferry-try-it-row" onSubmit={logIn}>
        <Field label="Email">
          {(id) => (
            <input
              id={id}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="ferry-button">
          Log in
        </button>
      </form>
      <form
        className="ferry-try-it-row"
        onSubmit={(e) => {
          e.preventDefault()
          if (pasted.trim()) remember(pasted.trim(), 'a pasted token')
        }}
      >
        <Field label="Or paste a token">
          {(id) => (
            <input
              id={id}
              type="text"
              spellCheck={false}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              placeholder="ferry_… or a JWT"
            />
          )}
        </Field>
        <button type="submit" className="ferry-button-secondary">
          Use this token
        </button>
      </form>
      {message && <p role="status">{message}</p>}
    </div>
  )
}

/** A prefilled issue naming the operation, the request's template, the status and each problem's JSON path. */
function ContractBugLink({
  operationId,
  request,
  target,
  status,
  problems,
}: {
  operationId: string
  request: TryItRequest
  target: TargetKind
  status: number
  problems: string[]
}) {
  const href = contractBugUrl(pageContext(), {
    operationId,
    request: `${request.method} ${request.path} (to ${target === 'sandbox' ? 'the sandbox' : 'a server of mine'})`,
    status,
    problems,
  })
  return (
    <p>
      <a href={href} target="_blank" rel="noopener" data-ferry-contract-bug="">
        Report a contract bug
      </a>{' '}
      if the server is right and the contract wrong.
    </p>
  )
}

function AnswerView({
  result,
  operationId,
  request,
  target,
}: {
  result: Result
  operationId: string
  request: TryItRequest
  target: TargetKind
}) {
  if (result.state === 'not-sent') {
    return (
      <div role="alert" className="ferry-try-it-errors">
        <p>Not sent:</p>
        <ul>
          {result.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </div>
    )
  }
  if (result.state === 'sending')
    return (
      <p role="status">
        Sending <code>{result.line}</code>…
      </p>
    )
  if (result.state === 'no-answer')
    return (
      <p role="alert">
        <code>{result.line}</code>: {result.message}
      </p>
    )
  const { answer, check, line } = result
  if (answer.opaqueRedirect)
    return (
      <p role="status">
        <code>{line}</code> answered with a redirect; the browser follows cross-origin redirects without showing them.
      </p>
    )
  const body = answer.json !== undefined ? JSON.stringify(answer.json, null, 2) : answer.text
  return (
    <div className="ferry-try-it-answer">
      <p role="status">
        <strong className="ferry-try-it-status" data-status={answer.status}>
          {answer.status} {answer.statusText || REASONS[answer.status] || ''}
        </strong>{' '}
        in {answer.ms} ms ·{' '}
        {check.verdict === 'matches' ? 'matches the documented response' : 'differs from the documented response'}
      </p>
      {check.details.length > 0 && (
        <ul className="ferry-try-it-errors">
          {check.details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {check.verdict === 'differs' && (
        <ContractBugLink
          operationId={operationId}
          request={request}
          target={target}
          status={answer.status}
          problems={check.details}
        />
      )}
      <details>
        <summary>Headers ({answer.headers.length})</summary>
        <table className="ferry-try-it-headers">
          <tbody>
            {answer.headers.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {body !== undefined ? (
        <pre className="ferry-try-it-body" tabIndex={0}>
          <code>{body}</code>
        </pre>
      ) : (
        <p>{answer.bytes > 0 ? `${answer.bytes} bytes of ${answer.contentType ?? 'binary data'}` : 'No body.'}</p>
      )}
    </div>
  )
}

/** The sandbox's values where the reader has not changed the contract's example. */
function withSandboxValues(draft: Draft, example: Draft, values: SandboxValues): Draft {
  const params = { ...draft.params }
  for (const [key, value] of Object.entries(values.params))
    if ((params[key] ?? '') === (example.params[key] ?? '')) params[key] = value
  const body = values.body !== undefined && draft.body === example.body ? values.body : draft.body
  return { ...draft, params, body }
}

export function TryItPanel({ operationId, request }: { operationId: string; request: TryItRequest }) {
  const s = useTryItSession()
  const [shared] = useState(() => readShared(window.location.search, operationId, request))
  const [draft, setDraft] = useState<Draft>(() => sharedDraft(request, shared))
  const [edited, setEdited] = useState(shared !== undefined)
  const [result, setResult] = useState<Result>()
  const [exampleFiles, setExampleFiles] = useState(true)
  const usesToken = request.security.some((alternative) => alternative.includes('bearerAuth'))
  const tokenOptional = request.security.some((alternative) => alternative.length === 0)
  const usesSignupKey = request.security.some((alternative) => alternative.includes('signupKey'))

  // In the sandbox, the demo session is used from the start (the reader can log out), and ids
  // the contract's examples name are replaced by the sandbox's own (try-it/sandbox-examples.ts).
  const [prepared, setPrepared] = useState(s.target !== 'sandbox')
  useEffect(() => {
    if (s.target !== 'sandbox') return setPrepared(true)
    let live = true
    setPrepared(false)
    const example = initialDraft(request)
    // The sandbox's signup key is its own: offered on the signup operation.
    const signupKey = usesSignupKey ? loadSandbox().then((sandbox) => sandbox.signupKey()) : Promise.resolve('')
    const signedIn = usesToken ? sandboxToken().catch(() => undefined) : Promise.resolve(undefined)
    Promise.all([sandboxValues(operationId, sandboxGet), signupKey, signedIn])
      .then(
        ([values, key]) =>
          live && setDraft((d) => ({ ...withSandboxValues(d, example, values), signupKey: d.signupKey || key })),
      )
      .catch(() => {})
      .finally(() => live && setPrepared(true))
    return () => {
      live = false
    }
  }, [s.target, operationId, request, usesSignupKey, usesToken])

  const set = (change: (d: Draft) => Draft) => {
    setEdited(true)
    setDraft(change)
  }

  // A shared request's target becomes this tab's (its credentials, if any, stay this tab's own).
  useEffect(() => {
    if (shared) updateSession((old) => ({ ...old, target: shared.target, serverUrl: shared.server ?? old.serverUrl }))
  }, [shared])

  // The request lives in the URL as it is edited (shared-state.ts), and in the page's samples.
  // Only while its page is the one shown: a panel being left must not write on the next page's URL.
  const [pathname] = useState(() => window.location.pathname)
  useEffect(() => {
    if (window.location.pathname === pathname) writeShared(toShared(operationId, request, draft, s.target, s.serverUrl))
  }, [pathname, operationId, request, draft, s.target, s.serverUrl])
  useEffect(() => {
    if (!edited && s.target === 'sandbox') return
    let live = true
    import('./live-samples')
      .then(
        ({ showSamples }) =>
          live && showSamples(request, draft, s.target === 'server' ? s.serverUrl.replace(/\/+$/, '') : undefined),
      )
      .catch(() => {})
    return () => {
      live = false
    }
  }, [edited, request, draft, s.target, s.serverUrl])

  async function submit(event: FormEvent) {
    event.preventDefault()
    const files = { ...draft.files }
    if (request.body?.kind === 'form' && exampleFiles) {
      for (const f of request.body.files)
        if (!files[f.name]?.length)
          files[f.name] = f.examples.map(
            (name) => new File([EXAMPLE_FILE_TEXT], name, { type: 'application/octet-stream' }),
          )
    }
    let token = usesToken ? s.credentials[credentialsKey(s)]?.token : undefined
    if (usesToken && s.target === 'sandbox' && !token) {
      try {
        token = await sandboxToken()
      } catch (error) {
        return setResult({
          state: 'no-answer',
          line: `${request.method} ${request.path}`,
          message: unreachable('sandbox', SANDBOX_ORIGIN, error),
        })
      }
    }
    const build = (with_: string | undefined) => buildRequest(request, { ...draft, files }, baseOf(s), with_)
    const built = build(token)
    if (!built.ok) return setResult({ state: 'not-sent', errors: built.errors })
    const line = `${request.method} ${built.url}`
    setResult({ state: 'sending', line })
    try {
      let answer = await send(s.target, built.url, built.init)
      // The demo token lapsed (a password change or a reset ends sessions): sign in again, once.
      if (answer.status === 401 && s.target === 'sandbox' && token && !session().sandboxLoggedOut) {
        dropSandboxToken()
        const again = build(await sandboxToken())
        if (again.ok) answer = await send(s.target, again.url, again.init)
      }
      const check = answer.opaqueRedirect
        ? { verdict: 'matches' as const, details: [] }
        : checkResponse(operationId, answer.status, answer.contentType, {
            json: answer.json,
            empty: answer.bytes === 0,
          })
      setResult({ state: 'answered', line, answer, check })
    } catch (error) {
      setResult({ state: 'no-answer', line, message: unreachable(s.target, built.url, error) })
    }
  }

  const body = request.body
  return (
    <div className="ferry-try-it-form">
      <TargetPicker s={s} />
      {usesToken && <Authorization key={credentialsKey(s)} s={s} optional={tokenOptional} />}
      <form onSubmit={submit}>
        {usesSignupKey && (
          <Field
            label="X-Ferry-Signup-Key"
            hint={
              s.target === 'sandbox'
                ? "The sandbox's own key, filled in."
                : 'The key in your data directory (signup-key) or FERRY_SIGNUP_KEY.'
            }
          >
            {(id) => (
              <input
                id={id}
                type="text"
                spellCheck={false}
                value={draft.signupKey}
                onChange={(e) => set((d) => ({ ...d, signupKey: e.target.value }))}
              />
            )}
          </Field>
        )}
        {request.parameters.length > 0 && (
          <fieldset>
            <legend>Parameters</legend>
            {request.parameters.map((p) => (
              <Field
                key={paramKey(p)}
                label={
                  <>
                    <code>{p.name}</code>{' '}
                    <span className="ferry-try-it-where">
                      {p.in}
                      {p.required ? ', required' : ''}
                    </span>
                  </>
                }
                hint={p.description && <InlineCode text={p.description} />}
              >
                {(id) => (
                  <input
                    id={id}
                    type="text"
                    spellCheck={false}
                    required={p.required}
                    placeholder={p.required ? undefined : p.example}
                    value={draft.params[paramKey(p)] ?? ''}
                    onChange={(e) => set((d) => ({ ...d, params: { ...d.params, [paramKey(p)]: e.target.value } }))}
                  />
                )}
              </Field>
            ))}
          </fieldset>
        )}
        {body && body.kind !== 'form' && (
          <Field
            label={
              <>
                Body{' '}
                <span className="ferry-try-it-where">
                  {body.contentType}
                  {body.required ? ', required' : ''}
                </span>
              </>
            }
          >
            {(id) => (
              <textarea
                id={id}
                spellCheck={false}
                rows={Math.min(16, Math.max(4, draft.body.split('\n').length + 1))}
                value={draft.body}
                onChange={(e) => set((d) => ({ ...d, body: e.target.value }))}
              />
            )}
          </Field>
        )}
        {body?.kind === 'form' && (
          <fieldset>
            <legend>
              Form fields <span className="ferry-try-it-where">{body.contentType}</span>
            </legend>
            {body.fields.map((f) => (
              <Field key={f.name} label={<code>{f.name}</code>}>
                {(id) => {
                  const value = draft.fields[f.name] ?? ''
                  const change = (text: string) => set((d) => ({ ...d, fields: { ...d.fields, [f.name]: text } }))
                  return f.example.includes('\n') ? (
                    <textarea id={id} rows={3} value={value} onChange={(e) => change(e.target.value)} />
                  ) : (
                    <input
                      id={id}
                      type="text"
                      spellCheck={false}
                      value={value}
                      onChange={(e) => change(e.target.value)}
                    />
                  )
                }}
              </Field>
            ))}
            {body.files.map((f) => (
              <Field
                key={f.name}
                label={
                  <>
                    <code>{f.name}</code> <span className="ferry-try-it-where">files</span>
                  </>
                }
              >
                {(id) => (
                  <input
                    id={id}
                    type="file"
                    multiple
                    onChange={(e) => {
                      const chosen = [...(e.target.files ?? [])]
                      set((d) => ({ ...d, files: { ...d.files, [f.name]: chosen } }))
                    }}
                  />
                )}
              </Field>
            ))}
            {body.files.length > 0 && (
              <label className="ferry-try-it-check">
                <input type="checkbox" checked={exampleFiles} onChange={(e) => setExampleFiles(e.target.checked)} />{' '}
                Where no file is chosen, send small example files named as in the contract (
                {body.files.flatMap((f) => f.examples).join(', ')})
              </label>
            )}
          </fieldset>
        )}
        <p className="ferry-try-it-send">
          <button type="submit" className="ferry-button" disabled={result?.state === 'sending' || !prepared}>
            Send request
          </button>
          <code>
            {request.method} {baseOf(s)}
            {request.path}
          </code>
        </p>
      </form>
      {result && <AnswerView result={result} operationId={operationId} request={request} target={s.target} />}
    </div>
  )
}
