import { MethodBadge } from './method-badge'

/** Method and path of an operation, e.g. `POST /v1/apps`. */
export function Endpoint({ method, path }: { method: string; path: string }) {
  return (
    <p className="ferry-api-endpoint">
      <MethodBadge method={method} />
      <code>{path}</code>
    </p>
  )
}
