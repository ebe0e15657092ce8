import type { SchemaRow } from '../../lib/codegen/model'
import { InlineCode } from './inline-code'

function Details({ row }: { row: SchemaRow }) {
  return (
    <>
      {row.description && (
        <p>
          <InlineCode text={row.description} />
        </p>
      )}
      {row.enum && (
        <p>
          One of:{' '}
          {row.enum.map((value, i) => (
            <span key={value}>
              {i > 0 && ', '}
              <code>{value}</code>
            </span>
          ))}
        </p>
      )}
      {row.constraints && (
        <p>
          {row.constraints.map((c) => (
            <code key={c} className="ferry-api-constraint">
              {c}
            </code>
          ))}
        </p>
      )}
      {row.default !== undefined && (
        <p>
          Default: <code>{row.default}</code>
        </p>
      )}
      {row.example !== undefined && (
        <p>
          Example: <code>{row.example}</code>
        </p>
      )}
    </>
  )
}

/**
 * Parameters or a body schema as one table; nested members are indented and keep their
 * dotted path (`artifacts[].sha256`) so screen readers hear where they belong.
 */
export function SchemaTable({ rows, label }: { rows: SchemaRow[]; label: string }) {
  return (
    <div className="ferry-api-table" role="region" aria-label={label} tabIndex={0}>
      <table>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const cut = row.name.lastIndexOf('.') + 1
            return (
              <tr key={row.name}>
                <th scope="row" style={{ paddingInlineStart: `${0.75 + row.depth * 1.25}rem` }}>
                  <code>
                    {cut > 0 && <span className="ferry-api-parent">{row.name.slice(0, cut)}</span>}
                    {row.name.slice(cut)}
                  </code>
                  {row.required && <span className="ferry-api-required">required</span>}
                </th>
                <td>
                  <span className="ferry-api-type">{row.type}</span>
                  {row.format && <span className="ferry-api-format"> ({row.format})</span>}
                  {row.schemaName && <span className="ferry-api-schema-name">{row.schemaName}</span>}
                </td>
                <td>
                  <Details row={row} />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
