import { useId, useState, type FormEvent } from 'react'
import { ProblemView } from './problem-view'
import {
  ProblemError,
  isProblem,
  type App,
  type Catalogs,
  type PackageType,
  type Problem,
  type SandboxApi,
  type Transport,
  type UpdateExplanation,
} from './sandbox-api'
import { CatalogSelect } from './upload-form'
import {
  PACKAGE_TYPES,
  UPDATE_FORMATS,
  type SimulatedAnswer,
  type SimulatorInput,
  type UpdateFormat,
} from './update-formats'

interface Result {
  request: string
  answer: SimulatedAnswer
  summary: string
  problem?: Problem
  /** Why Ferry answered so (the explain endpoint), or why there is no explanation. */
  explanation?: UpdateExplanation | string
}

/** Asks the explain endpoint about the same check; a string says why it could not. */
async function explainCheck(
  api: SandboxApi | undefined,
  format: UpdateFormat,
  input: SimulatorInput,
): Promise<UpdateExplanation | string | undefined> {
  if (!format.explain) return undefined
  if (!api) return 'Sign in to see why.'
  if (input.deviceId.length < 8)
    return 'Enter a device id (8 characters or more) to see why Ferry answered so: rollouts bucket each device by it.'
  try {
    return await api.explain(input.app, {
      version: input.version,
      channel: input.channel,
      platform: format.explain.platform ?? input.platform,
      arch: input.arch,
      deviceId: input.deviceId,
      ...(format.explain.format ? { format: format.explain.format } : {}),
    })
  } catch (error) {
    return error instanceof ProblemError
      ? (error.problem.detail ?? error.message)
      : 'The explanation could not be loaded.'
  }
}

function Explanation({ explanation }: { explanation: UpdateExplanation | string }) {
  if (typeof explanation === 'string') return <p className="ferry-sim-why">{explanation}</p>
  const { offered, downgrade, rolloutMode, versions } = explanation
  return (
    <div className="ferry-sim-why">
      <h4>Why</h4>
      <p>
        {offered
          ? `Ferry offers ${offered}${downgrade ? ' (a rollback: the installed version is pulled)' : ''}.`
          : 'Ferry offers no update.'}{' '}
        {rolloutMode === 'client' ? 'This updater stages partial rollouts itself from the percentage Ferry sends.' : ''}
      </p>
      <table className="ferry-explain">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Verdict</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.id}>
              <td>{v.version}</td>
              <td>{v.verdict === 'offered' ? <strong>offered</strong> : `${v.verdict} (${v.rule})`}</td>
              <td>{v.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 302) return null
  const type = res.headers.get('content-type') ?? ''
  return /json/i.test(type) ? res.json() : res.text()
}

/** Asks the server what an installed app would receive, with the app's own request. */
export function UpdateSimulator({
  transport,
  apps,
  catalogs,
  api,
}: {
  transport: Transport
  apps: App[]
  catalogs: Catalogs
  api?: SandboxApi
}) {
  const id = useId()
  const [formatId, setFormatId] = useState(UPDATE_FORMATS[0]?.id ?? '')
  const [input, setInput] = useState<SimulatorInput>({
    app: 'harbor-notes',
    version: '1.0.0',
    channel: 'stable',
    platform: 'windows',
    arch: 'x64',
    packageType: 'exe',
    deviceId: '',
  })
  const [result, setResult] = useState<Result>()
  const [busy, setBusy] = useState(false)
  const format = UPDATE_FORMATS.find((f) => f.id === formatId) ?? UPDATE_FORMATS[0]
  const set =
    <K extends keyof SimulatorInput>(key: K) =>
    (value: SimulatorInput[K]) =>
      setInput((i) => ({ ...i, [key]: value }))
  const uses = (key: keyof SimulatorInput) => format?.uses.includes(key) ?? false

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!format) return
    setBusy(true)
    try {
      const { path, headers } = format.request(input)
      const res = await transport.fetch(new Request(transport.origin + path, { headers }))
      const answer = { status: res.status, headers: res.headers, body: await readBody(res) }
      const request = `GET ${path}`
      if (isProblem(res)) setResult({ request, answer, summary: '', problem: answer.body as Problem })
      else {
        const explanation = await explainCheck(api, format, input)
        setResult({ request, answer, summary: format.summarize(answer), ...(explanation ? { explanation } : {}) })
      }
    } finally {
      setBusy(false)
    }
  }

  const shownHeaders = result
    ? ['content-type', 'location', 'cache-control'].flatMap((h) =>
        result.answer.headers.has(h) ? [`${h}: ${result.answer.headers.get(h)}`] : [],
      )
    : []

  return (
    <section className="ferry-sim" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Update-check simulator</h3>
      <p>Pretend to be an installed app: Ferry answers exactly what it would send that app.</p>
      <form className="ferry-form" onSubmit={submit}>
        <div className="ferry-form-row">
          <div>
            <label htmlFor={`${id}-app`}>App</label>
            <select id={`${id}-app`} value={input.app} onChange={(e) => set('app')(e.target.value)}>
              {apps.map((a) => (
                <option key={a.slug} value={a.slug}>
                  {a.name} ({a.slug})
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-format`}>Request</label>
            <select id={`${id}-format`} value={formatId} onChange={(e) => setFormatId(e.target.value)}>
              {UPDATE_FORMATS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          {uses('version') ? (
            <div>
              <label htmlFor={`${id}-version`}>Installed version</label>
              <input
                id={`${id}-version`}
                value={input.version}
                onChange={(e) => set('version')(e.target.value)}
                autoComplete="off"
              />
            </div>
          ) : null}
          {uses('channel') ? (
            <div>
              <CatalogSelect
                id={`${id}-channel`}
                label="Channel"
                names={catalogs.channels}
                value={input.channel}
                onChange={set('channel')}
              />
            </div>
          ) : null}
          {uses('platform') ? (
            <div>
              <CatalogSelect
                id={`${id}-platform`}
                label="Platform"
                names={catalogs.platforms}
                value={input.platform}
                onChange={set('platform')}
              />
            </div>
          ) : null}
          {uses('arch') ? (
            <div>
              <CatalogSelect
                id={`${id}-arch`}
                label="Architecture"
                names={catalogs.archs}
                value={input.arch}
                onChange={set('arch')}
              />
            </div>
          ) : null}
          {uses('packageType') ? (
            <div>
              <label htmlFor={`${id}-type`}>Package type</label>
              <select
                id={`${id}-type`}
                value={input.packageType}
                onChange={(e) => set('packageType')(e.target.value as PackageType)}
              >
                {PACKAGE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {uses('deviceId') ? (
            <div>
              <label htmlFor={`${id}-device`}>Device id (optional, for rollouts)</label>
              <input
                id={`${id}-device`}
                value={input.deviceId}
                onChange={(e) => set('deviceId')(e.target.value)}
                autoComplete="off"
              />
            </div>
          ) : null}
        </div>
        <button type="submit" className="ferry-btn ferry-btn-primary" disabled={busy || apps.length === 0}>
          Check for updates
        </button>
      </form>
      <div className="ferry-sim-result" role="status" aria-label="Simulator answer">
        {result ? (
          <>
            <p className="ferry-sim-summary">{result.summary}</p>
            <pre className="ferry-sim-exchange">
              {`${result.request}\n\nHTTP ${result.answer.status}\n${shownHeaders.join('\n')}`}
            </pre>
            {result.problem ? (
              <ProblemView problem={result.problem} />
            ) : result.answer.body !== null ? (
              <pre className="ferry-sim-body">
                {typeof result.answer.body === 'string'
                  ? result.answer.body
                  : JSON.stringify(result.answer.body, null, 2)}
              </pre>
            ) : null}
            {result.explanation ? <Explanation explanation={result.explanation} /> : null}
          </>
        ) : null}
      </div>
    </section>
  )
}
