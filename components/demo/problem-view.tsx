import type { Problem } from './sandbox-api'

/** An RFC 9457 problem as the API sent it: status and title, detail, field errors, raw document. */
export function ProblemView({ problem }: { problem: Problem }) {
  return (
    <div className="ferry-problem" role="alert">
      <p>
        <strong>
          {problem.status} {problem.title}
        </strong>
        {problem.detail ? <> — {problem.detail}</> : null}
      </p>
      {problem.errors?.length ? (
        <ul>
          {problem.errors.map((e, i) => (
            <li key={i}>
              <code>{e.field ?? e.pointer ?? '/'}</code>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      <details>
        <summary>application/problem+json</summary>
        <pre>{JSON.stringify(problem, null, 2)}</pre>
      </details>
    </div>
  )
}
