import SwaggerUI from 'swagger-ui-react'
import 'swagger-ui-react/swagger-ui.css'

/** The spec published with the site (written by npm run gen from openapi/openapi.yaml). */
const SPEC_URL = '/openapi.json'

export default function SwaggerConsole() {
  return <SwaggerUI url={SPEC_URL} deepLinking docExpansion="list" defaultModelsExpandDepth={0} tryItOutEnabled={false} />
}
