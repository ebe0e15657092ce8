/**
 * What the signature suites share: the Tauri CLI this repository installs (`tauri signer
 * generate` / `sign`), and a suite server with a team whose app ships Tauri updates.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { jsonBody, signup, withTeam, type UploadTeam } from './helpers.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const run = promisify(execFile)

/** Runs the Tauri CLI with `password` unlocking the private keys it makes and uses. */
export const tauriCli = (password: string) => (args: string[]) =>
  run(process.execPath, [join(ROOT, 'node_modules', '@tauri-apps', 'cli', 'tauri.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, TAURI_SIGNING_PRIVATE_KEY_PASSWORD: password },
  })

/**
 * A suite server and a team signed up as `email` with the catalogs stable, darwin (Tauri's
 * updater) and arm64, and the app `slug`; `token` is the admin's.
 */
export function withTauriApp(slug: string, name: string, email: string): UploadTeam {
  return withTeam(async (f) => {
    const { token } = await signup(f, email)
    for (const [path, body] of [
      ['/v1/channels', { name: 'stable' }],
      ['/v1/platforms', { name: 'darwin', updater: 'tauri' }],
      ['/v1/archs', { name: 'arm64' }],
      ['/v1/apps', { slug, name }],
    ] as const)
      assert.equal((await f(path, jsonBody(body, token))).status, 201)
    return token
  })
}
