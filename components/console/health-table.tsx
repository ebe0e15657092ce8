import { useId } from 'react'
import type { Version } from '../demo/sandbox-api'

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 1000) / 10} %` : '—')

/** Each version's health reports, the share that failed, from how many addresses, and why it is paused. */
export function HealthTable({ versions }: { versions: Version[] }) {
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Health per version</h3>
      <div
        className="ferry-console-scroll"
        role="region"
        aria-label="Health per version, scrolls sideways"
        tabIndex={0}
      >
        <table className="ferry-console-table">
          <caption className="ferry-sr-only">Health reports of each version since it was last resumed</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Reports</th>
              <th scope="col">Failure share</th>
              <th scope="col">Failed from addresses</th>
              <th scope="col">Pauses when</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => {
              const { health, paused, pulled } = v.rollout
              const policy = health.policy
              return (
                <tr key={v.id}>
                  <th scope="row">
                    {v.version}{' '}
                    <span className="ferry-muted">
                      {v.channel} · {v.platform}/{v.arch}
                    </span>
                  </th>
                  <td>{health.reports}</td>
                  <td>
                    {percent(health.failed, health.reports)} ({health.failed} failed)
                  </td>
                  <td>
                    {health.failedAddresses} of {policy.minAddresses} needed
                  </td>
                  <td>
                    over {Math.round(policy.maxFailureRatio * 1000) / 10} % of ≥ {policy.minReports} reports
                    {health.defaultPolicy ? ' (server default)' : ''}
                  </td>
                  <td>
                    {pulled
                      ? `Pulled: ${pulled.reason}`
                      : paused
                        ? `${paused.automatic ? 'Paused itself' : 'Paused'}: ${paused.reason}`
                        : v.published
                          ? `Offered to ${v.rolloutPercentage} %`
                          : 'Draft'}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </section>
  )
}
