import { useEffect, useMemo, useRef, useState } from 'react'
import SwaggerUI from 'swagger-ui-react'
import 'swagger-ui-react/swagger-ui.css'
import { repairSwaggerA11y } from './swagger-a11y'
import { sandboxGet, sandboxToken } from '../api/try-it/sandbox-session'
import {
  authorizeAfterLogin,
  authorizeWith,
  routeToSandbox,
  withSandboxExamples,
  withServerChoices,
  type SwaggerSystem,
} from './swagger-sandbox'

/** The spec published with the site (written by npm run gen from openapi/openapi.yaml). */
const SPEC_URL = '/openapi.json'

/**
 * The spec with the sandbox's own ids as defaults, and the demo session's token, so every
 * operation works on its first try. Without a sandbox (it failed to start) the contract's own
 * examples are shown, and nothing is authorised.
 */
async function prepare(doc: Record<string, unknown>): Promise<{ spec: object; token?: string }> {
  const spec = withServerChoices(doc)
  try {
    const token = await sandboxToken()
    return { spec: await withSandboxExamples(spec, sandboxGet), token }
  } catch {
    return { spec }
  }
}

export default function SwaggerConsole() {
  const root = useRef<HTMLDivElement>(null)
  const system = useRef<SwaggerSystem | undefined>(undefined)
  const [prepared, setPrepared] = useState<{ spec: object; token?: string }>()
  const [failed, setFailed] = useState<string>()
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    fetch(SPEC_URL)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((doc: Record<string, unknown>) => prepare(doc))
      .then((ready) => live && setPrepared(ready))
      .catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [attempt])
  useEffect(() => (root.current ? repairSwaggerA11y(root.current) : undefined), [])
  const responseInterceptor = useMemo(() => authorizeAfterLogin(() => system.current), [])
  return (
    <div ref={root}>
      {failed ? (
        <div className="ferry-problem" role="alert">
          <p>
            <strong>The API description did not load.</strong> {failed}
          </p>
          <button
            type="button"
            className="ferry-btn"
            onClick={() => {
              setFailed(undefined)
              setAttempt((n) => n + 1)
            }}
          >
            Retry
          </button>
        </div>
      ) : !prepared ? (
        <p className="ferry-demo-loading" role="status">
          Loading the interactive reference…
        </p>
      ) : (
        <SwaggerUI
          spec={prepared.spec}
          deepLinking
          docExpansion="list"
          defaultModelsExpandDepth={0}
          tryItOutEnabled={false}
          persistAuthorization
          requestInterceptor={routeToSandbox}
          responseInterceptor={responseInterceptor}
          onComplete={(s) => {
            system.current = s
            if (prepared.token) authorizeWith(s, prepared.token)
          }}
        />
      )}
    </div>
  )
}
