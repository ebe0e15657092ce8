/**
 * An operation page's Try it: a button that opens a panel to send the operation to the in-browser
 * sandbox or to a server of the reader's (try-it/panel.tsx). This is markup only, with the
 * request's examples in a data attribute: the panel's code loads when the button is first
 * pressed (try-it/toggle.ts, by delegation), so a page that is only read loads none of it.
 */
import type { TryItRequest } from '../../lib/codegen/model'
import { TRY_IT_ID } from '../skip-targets'

export function TryIt({ href, operationId, request }: { href: string; operationId: string; request: TryItRequest }) {
  const panelId = `try-it-${operationId}`
  return (
    <section
      className="ferry-try-it"
      aria-label="Try it"
      data-ferry-try-it={operationId}
      data-request={JSON.stringify(request)}
    >
      <p className="ferry-try-it-bar">
        <button
          type="button"
          id={TRY_IT_ID}
          className="ferry-button ferry-try-it-toggle"
          aria-expanded="false"
          aria-controls={panelId}
          data-ferry-try-it-toggle=""
        >
          Try it
        </button>
        <span>
          Send this request from this page, to the sandbox in your browser or to your own server; or open it{' '}
          <a className="ferry-api-try-it" href={href} data-operation-id={operationId}>
            in the demo's console <span aria-hidden="true">→</span>
          </a>
        </span>
      </p>
      <div id={panelId} className="ferry-try-it-panel" hidden />
    </section>
  )
}
