// backend-matrix: sqlite-only — file-name rules; no database or blob store
/** Artifact file names: package types, and the rule that a Tauri signature arrives with its bundle. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { packageTypeOf, uploadSetProblems } from '../../contract/artifact-files.ts'

test('Tauri signature files are their own package type, whatever the bundle', () => {
  for (const name of [
    'App_1.0.0_x64-setup.exe.sig',
    'App.app.tar.gz.sig',
    'app_1.0.0_amd64.AppImage.sig',
    'App_1.0.0_x64_en-US.msi.sig',
  ]) {
    assert.equal(packageTypeOf(name), 'sig', name)
  }
  assert.equal(packageTypeOf('App.app.tar.gz'), 'tar.gz')
})

test('a signature without its bundle in the same upload is named as a problem', () => {
  assert.deepEqual(uploadSetProblems(['App.app.tar.gz', 'App.app.tar.gz.sig', 'App.dmg']), [])
  assert.deepEqual(uploadSetProblems(['App.dmg', 'App.app.tar.gz.sig']), [
    'signature "App.app.tar.gz.sig" has no bundle "App.app.tar.gz" in this upload',
  ])
})
