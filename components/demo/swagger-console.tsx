import { useEffect, useMemo, useRef, useState } from 'react'
import SwaggerUI from 'swagger-ui-react'
import 'swagger-ui-react/swagger-ui.css'
import { repairSwaggerA11y } from './swagger-a11y'
import { authorizeAfterLogin, routeToSandbox, withServerChoices, type SwaggerSystem } from './swagger-sandbox'

/** The spec published with the site (written by npm run gen from openapi/openapi.yaml). */
const SPEC_URL = '/openapi.json'

export default function SwaggerConsole() {
  const root = useRef<HTMLDivElement>(null)
  const system = useRef<SwaggerSystem | undefined>(undefined)
  const [spec, setSpec] = useState<object>()
  const [failed, setFailed] = useState<string>()
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    fetch(SPEC_URL)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((doc: Record<string, unknown>) => live && setSpec(withServerChoices(doc)))
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
      ) : !spec ? (
        <p className="ferry-demo-loading" role="status">
          Loading the interactive reference…
        </p>
      ) : (
        <SwaggerUI
          spec={spec}
          deepLinking
          docExpansion="list"
          defaultModelsExpandDepth={0}
          tryItOutEnabled={false}
          persistAuthorization
          requestInterceptor={routeToSandbox}
          responseInterceptor={responseInterceptor}
          onComplete={(s) => {
            system.current = s
          }}
        />
      )}
    </div>
  )
}
