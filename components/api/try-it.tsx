/** Opens the operation in the demo dashboard's API console (a swagger-ui deep link). */
export function TryIt({ href, operationId }: { href: string; operationId: string }) {
  return (
    <p>
      <a className="ferry-api-try-it" href={href} data-operation-id={operationId}>
        Try it in the demo <span aria-hidden="true">→</span>
      </a>
    </p>
  )
}
