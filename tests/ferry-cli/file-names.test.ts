/** What the ferry CLI reads from file names, and how it reports progress: pure functions. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { archInName, stemOf, versionInName } from '../../lib/ferry-cli/file-names.ts'
import { formatBytes, progressReporter, table, type Io } from '../../lib/ferry-cli/output.ts'

test('versions in electron-builder, Squirrel and Tauri names; an arch after the version is not a pre-release', () => {
  const cases: Array<[string, string | undefined]> = [
    ['Notes Setup 1.2.0.exe', '1.2.0'],
    ['Notes Setup 1.2.0.exe.blockmap', '1.2.0'],
    ['Notes-1.2.0-arm64-mac.zip', '1.2.0'],
    ['Notes-2.0.0-beta.1-arm64.dmg', '2.0.0-beta.1'],
    ['Notes-2.0.0-rc.2.AppImage', '2.0.0-rc.2'],
    ['notes_1.2.0_amd64.deb', '1.2.0'],
    ['notes-1.2.0.x86_64.rpm', '1.2.0'],
    ['Notes-1.2.0-full.nupkg', '1.2.0'],
    ['Tapp_2.0.0_x64-setup.exe.sig', '2.0.0'],
    ['tapp-2.0.0-1.x86_64.rpm', '2.0.0'],
    ['Tapp.app.tar.gz', undefined],
    ['RELEASES', undefined],
    ['Notes-11.2.0.exe', '11.2.0'],
  ]
  for (const [name, version] of cases) assert.equal(versionInName(name), version, name)
})

test('architectures map to Ferry names (formats.ts): x86_64/amd64 → x64, aarch64 → arm64, i686 → ia32', () => {
  const cases: Array<[string, string | undefined]> = [
    ['Notes Setup 1.2.0.exe', undefined],
    ['Notes-1.2.0-arm64-mac.zip', 'arm64'],
    ['notes_1.2.0_amd64.deb', 'x64'],
    ['notes-1.2.0.x86_64.rpm', 'x64'],
    ['Tapp_2.0.0_aarch64.dmg', 'arm64'],
    ['Tapp_2.0.0_x64_en-US.msi.sig', 'x64'],
    ['Notes-1.2.0-universal.dmg', 'universal'],
    ['Notes Setup 1.2.0-ia32.exe', 'ia32'],
    ['tapp_2.0.0_i686.AppImage', 'ia32'],
    ['Notes-1.2.0-armv7l.AppImage', 'armv7l'],
    ['squirrel-windows-ia32', 'ia32'],
    ['Tapp.app.tar.gz', undefined],
  ]
  for (const [name, arch] of cases) assert.equal(archInName(name), arch, name)
  assert.equal(stemOf('Tapp.app.tar.gz.sig'), 'Tapp.app')
  assert.equal(stemOf('Notes-1.2.0.AppImage'), 'Notes-1.2.0')
})

test('progress is written to stderr at most once per second', () => {
  let clock = 0
  const err: string[] = []
  const io: Io = { out: () => {}, err: (l) => err.push(l), env: process.env, now: () => clock }
  const report = progressReporter(io, 'windows/x64', 3_000_000)
  for (let sent = 0; sent <= 3_000_000; sent += 100_000) {
    clock += 250
    report(sent)
  }
  assert.equal(err.length, 7)
  assert.equal(err[0], 'windows/x64: 300.0 kB of 3.0 MB sent')
  assert.equal(formatBytes(999), '999 B')
  assert.deepEqual(
    table([
      ['A', 'BB', 'C'],
      ['long', 'x', 'last column'],
    ]),
    ['A     BB  C', 'long  x   last column'],
  )
})
