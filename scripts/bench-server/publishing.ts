/**
 * Uploaders of the "checks while publishing" route of `npm run bench:server`: `uploaders` loops,
 * each publishing new stable/windows/x64 versions of an app (a 256 KiB installer each) until
 * stopped, so that every upload changes the answer to the update checks measured meanwhile.
 */
import { randomBytes } from 'node:crypto'

const INSTALLER_BYTES = 256 * 1024

export interface Publishing {
  /** Stops the loops after their current upload; resolves to the number of versions published. */
  stop(): Promise<number>
}

/** Publishes versions 20.0.`first`, 20.0.`first + 1`… */
export function startPublishing(
  base: string,
  token: string,
  app: string,
  uploaders: number,
  first: number,
): Publishing {
  let running = true
  let published = 0
  let next = first
  async function uploader(): Promise<void> {
    while (running) {
      const version = `20.0.${next++}`
      const form = new FormData()
      for (const [k, v] of Object.entries({
        version,
        channel: 'stable',
        platform: 'windows',
        arch: 'x64',
        published: 'true',
      }))
        form.set(k, v)
      form.append('files', new File([randomBytes(INSTALLER_BYTES)], `${app}-Setup-${version}.exe`))
      const res = await fetch(`${base}/v1/apps/${app}/versions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      if (res.status !== 201) throw new Error(`upload of ${version} answered ${res.status}: ${await res.text()}`)
      published++
    }
  }
  const loops = Array.from({ length: uploaders }, () => uploader())
  return {
    async stop() {
      running = false
      await Promise.all(loops)
      return published
    },
  }
}
