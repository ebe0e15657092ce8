/**
 * @module Where Ferry's versioning policy (openapi.yaml, info.description "Versioning") overrides
 * the diff library's verdict. The library is cautious about responses; Ferry promises clients
 * must ignore what they do not know, so within /v1 responses may grow. Each override is shown
 * on the changelog page with its reason, so the reader sees both verdicts.
 */

/** A change the library called breaking, seen from where it sits in the contract. */
export interface PolicyInput {
  /** Tokens after the method: `responses`, `200`, `content`, …; or `parameters`, `2`, … */
  tokens: readonly (string | number)[]
  action: 'add' | 'remove' | 'replace' | 'rename'
  after: unknown
}

const inResponseSchema = (tokens: readonly (string | number)[]) =>
  tokens[0] === 'responses' && tokens.includes('schema')

/** The reason a breaking verdict does not hold under Ferry's policy, or undefined when it holds. */
export function policyOverride({ tokens, action, after }: PolicyInput): string | undefined {
  if (!inResponseSchema(tokens) || action !== 'add') return undefined
  const last = tokens.at(-1)
  const parent = tokens.at(-2)
  if (parent === 'enum')
    return 'a new enum value of a response member is additive in /v1: clients must ignore values they do not know'
  if (last === 'additionalProperties' && after === false)
    return 'a response that may no longer carry unknown members sends clients less, never more'
  if (parent === 'anyOf' || parent === 'oneOf')
    return 'a new response alternative is sent only to clients that ask for it (a new request value), so existing clients see no change'
  return undefined
}

/**
 * The reason a change the library calls non-breaking is breaking under Ferry's policy, or
 * undefined. A request schema that gains `additionalProperties: false` turns members a client
 * used to send (and the server ignored) into a 400.
 */
export function policyBreaking({ tokens, action, after }: PolicyInput): string | undefined {
  if (tokens[0] !== 'requestBody' || !tokens.includes('schema') || action !== 'add') return undefined
  if (tokens.at(-1) === 'additionalProperties' && after === false)
    return 'a client that sends a member the contract does not name now gets a 400 instead of having it ignored'
  return undefined
}
