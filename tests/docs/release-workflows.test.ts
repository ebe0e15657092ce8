/**
 * The guides' GitHub Actions release workflows, parsed: each checks the app out into `app/` and
 * Ferry beside it into `ferry/` (never inside the app, whose folder electron-builder packs into
 * app.asar) and builds in `app/`. Then either Ferry is packed in `ferry/` before the app's
 * `npm ci` installs it (its devDependency names the tarball) and `npx ferry` runs in `app/`
 * (Electron), or Ferry's runtime is installed in `ferry/` and `ferry` runs there on a folder
 * under `../app/` (Tauri, whose app has no devDependency on Ferry).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { parse } from 'yaml'

const root = join(import.meta.dirname, '..', '..')
const PAGES = ['pages/docs/publishing.mdx', 'pages/docs/quickstart-electron.mdx', 'pages/docs/quickstart-tauri.mdx']

interface Step {
  uses?: string
  run?: string
  with?: Record<string, string>
  'working-directory'?: string
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>
}

function workflows(page: string): Array<{ line: number; workflow: Workflow }> {
  const text = readFileSync(join(root, page), 'utf8')
  return [...text.matchAll(/^```yaml[^\n]*\n([\s\S]*?)^```/gm)]
    .filter((m) => m[1]!.includes('jobs:') && m[1]!.includes('actions/checkout'))
    .map((m) => ({ line: text.slice(0, m.index).split('\n').length, workflow: parse(m[1]!) as Workflow }))
}

for (const page of PAGES) {
  test(`${page}: the release workflow keeps Ferry out of the app and runs ferry from its checkout`, () => {
    const found = workflows(page)
    assert.equal(found.length, 1, `${page} has one release workflow`)
    for (const { line, workflow } of found) {
      const where = `${page}:${line}`
      for (const [name, job] of Object.entries(workflow.jobs)) {
        const checkouts = job.steps.filter((s) => s.uses?.startsWith('actions/checkout'))
        const app = checkouts.find((s) => !s.with?.repository)
        const ferry = checkouts.find((s) => s.with?.repository === 'ferry-updates/ferry')
        assert.equal(app?.with?.path, 'app', `${where} job ${name}: the app is checked out into app/`)
        assert.equal(
          ferry?.with?.path,
          'ferry',
          `${where} job ${name}: Ferry is checked out into ferry/, beside the app`,
        )
        const packs = job.steps.findIndex((s) => s.run === 'npm ci --ignore-scripts && npm pack')
        for (const [i, step] of job.steps.entries()) {
          const run = step.run ?? ''
          if (
            /electron-builder|npm ci(?! --omit| --ignore-scripts && npm pack)/.test(run) ||
            step.uses?.startsWith('tauri-apps/')
          ) {
            assert.ok(
              step['working-directory'] === 'app' || step.with?.projectPath === 'app',
              `${where}: "${run || step.uses}" runs in app/`,
            )
          }
          if (i === packs) {
            // The tarball the app's devDependency "ferry": "file:../ferry/ferry-0.1.0.tgz" names.
            assert.equal(step['working-directory'], 'ferry', `${where}: "${run}" packs Ferry in ferry/`)
          }
          if (/npm ci --omit/.test(run)) {
            assert.equal(run, 'npm ci --omit=dev --ignore-scripts', `${where}: Ferry's runtime only`)
            assert.equal(step['working-directory'], 'ferry', `${where}: "${run}" runs in ferry/`)
          }
          if (/\bferry -- /.test(run)) {
            assert.equal(
              step['working-directory'],
              'ferry',
              `${where}: "${run}" runs in ferry/, which has the npm run ferry script`,
            )
            assert.match(run, /^npm run -s ferry -- publish \.\.\/app\/\S+ /, `${where}: publishes a folder of the app`)
          }
          if (/\bnpx ferry /.test(run)) {
            assert.equal(step['working-directory'], 'app', `${where}: "${run}" runs the app's installed tool in app/`)
            assert.match(run, /^npx ferry publish \S+ /, `${where}: publishes a folder of the app`)
            const appInstall = job.steps.findIndex((s) => /^npm ci(?! --)/.test(s.run ?? ''))
            assert.ok(
              packs !== -1 && packs < appInstall && appInstall < i,
              `${where}: Ferry is packed, then the app installed, then npx ferry runs`,
            )
          }
        }
      }
    }
  })
}
