import { useEffect, useRef } from 'react'
import SwaggerUI from 'swagger-ui-react'
import 'swagger-ui-react/swagger-ui.css'
import { repairSwaggerA11y } from './swagger-a11y'

/** The spec published with the site (written by npm run gen from openapi/openapi.yaml). */
const SPEC_URL = '/openapi.json'

export default function SwaggerConsole() {
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => (root.current ? repairSwaggerA11y(root.current) : undefined), [])
  return (
    <div ref={root}>
      <SwaggerUI url={SPEC_URL} deepLinking docExpansion="list" defaultModelsExpandDepth={0} tryItOutEnabled={false} />
    </div>
  )
}
