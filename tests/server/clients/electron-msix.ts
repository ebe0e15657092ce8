/**
 * What Electron's MSIX updater does with a feed URL, transcribed from electron/electron
 * `lib/browser/api/auto-updater/auto-updater-msix.ts` (Electron 39+; `getUpdateInfo`,
 * `fetchSquirrelJson`, `parseDynamicReleasFile`, `validateMsixUrl`). The real client runs only
 * inside an MSIX-packaged app on Windows (it calls Windows' PackageManager), so it cannot run
 * here: this is its request sequence and its checks, step for step, with `fetch` for `net.fetch`.
 */

export type ElectronMsixResult =
  | { ok: false; error: string }
  | { ok: true; available: false }
  | { ok: true; available: true; updateUrl: string; releaseName: string; releaseNotes: string; releaseDate: Date }

/** `validateMsixUrl`: HEAD, following redirects; the final URL's path must end in `.msix` or `.msixbundle`. */
async function isDirectMsixUrl(
  url: string,
  headers: Record<string, string>,
): Promise<{ direct: boolean; error?: string }> {
  try {
    const response = await fetch(url, { method: 'HEAD', headers, redirect: 'follow' })
    const finalUrl = response.url || url
    const pathname = new URL(finalUrl).pathname.toLowerCase()
    if (!(pathname.endsWith('.msix') || pathname.endsWith('.msixbundle'))) {
      return {
        direct: false,
        error: `Update URL does not point to an MSIX file. Expected .msix or .msixbundle extension, got final URL: ${finalUrl}`,
      }
    }
    return { direct: true }
  } catch (error) {
    return { direct: false, error: error instanceof TypeError ? `Invalid MSIX URL: ${url}` : String(error) }
  }
}

/** `getUpdateInfo` for a feed URL, with `setFeedURL({ url, headers })`. */
export async function electronMsixCheck(
  feedUrl: string,
  headers: Record<string, string> = {},
): Promise<ElectronMsixResult> {
  if ((await isDirectMsixUrl(feedUrl, headers)).direct)
    return { ok: true, available: true, updateUrl: feedUrl, releaseName: '', releaseNotes: '', releaseDate: new Date() }
  // fetchSquirrelJson: Accept is always application/json.
  const response = await fetch(feedUrl, { headers: { ...headers, Accept: 'application/json' } })
  if (response.status === 204) return { ok: true, available: false }
  if (response.status !== 200) return { ok: false, error: `Unexpected response status: ${response.status}` }
  const json = (await response.json()) as Record<string, unknown>
  // The "static" format (releases + currentRelease) is for files; Ferry answers the dynamic one.
  if (Array.isArray(json.releases)) return { ok: false, error: 'static releases format: Ferry never answers it' }
  if (!json.url) return { ok: false, error: "Invalid releases format. Expected 'url' string property." }
  const updateUrl = typeof json.url === 'string' ? json.url : ''
  const checked = await isDirectMsixUrl(updateUrl, headers)
  if (!checked.direct) return { ok: false, error: checked.error ?? 'not an MSIX URL' }
  return {
    ok: true,
    available: true,
    updateUrl,
    releaseName: typeof json.name === 'string' ? json.name : '',
    releaseNotes: typeof json.notes === 'string' ? json.notes : '',
    releaseDate: typeof json.pub_date === 'string' ? new Date(json.pub_date) : new Date(),
  }
}
