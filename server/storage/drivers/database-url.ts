/** @module A database URL as it may appear in logs and errors: host, port and database, never the password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.hostname}:${u.port || 5432}${u.pathname}`
  } catch {
    return 'the configured URL'
  }
}
