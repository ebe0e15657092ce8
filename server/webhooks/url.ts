/** @module The runtime-free check of a webhook URL: absolute, http or https, no credentials. */

export async function webhookUrlSyntaxProblem(url: string): Promise<string | undefined> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not an absolute URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL'
  if (parsed.username || parsed.password) return 'must not carry credentials'
  return undefined
}
