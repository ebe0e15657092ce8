/** An HTTP method as a coloured label; the colour is decoration, the text carries the meaning. */
export function MethodBadge({ method }: { method: string }) {
  return <span className={`ferry-api-method ferry-api-method-${method.toLowerCase()}`}>{method.toUpperCase()}</span>
}
