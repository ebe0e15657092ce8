import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { generate, PAGES_DIR } from '../../lib/generate-api.ts'
import { loadSpec } from '../../lib/codegen/load.ts'
import { METHODS } from '../../lib/codegen/transform/operation.ts'
import { SPEC } from './helpers.ts'
import { API_SLUGS } from '../site-spec-routes.ts'

/** Operations added beyond the site spec's list (allowed, each with its own page). */
const ADDED: Record<string, string[]> = {
  apps: [
    'pause-version',
    'resume-version',
    'pull-version',
    'update-key-devices',
    'version-adoption',
    'list-rules',
    'create-rule',
    'delete-rule',
    'publish-tuf-metadata',
  ],
  info: [
    'squirrel-windows-package',
    'squirrel-mac',
    'electron-updater',
    'electron-updater-file',
    'tauri',
    'velopack',
    'sparkle',
    'telemetry',
    'explain-update',
    'report-update-outcome',
    'repository-key',
    'apt-release',
    'apt-packages',
    'apt-by-hash',
    'apt-pool',
    'rpm-repodata',
    'rpm-package',
    'msix',
    'msix-appinstaller',
    'msix-package',
    'electron-updater-cohort',
    'sparkle-cohort',
    'tuf-metadata',
    'call-mcp',
  ],
  team: ['create-token', 'list-tokens', 'revoke-token', 'list-audit-entries'],
  webhooks: [
    'webhooks-introduction',
    'list-webhooks',
    'create-webhook',
    'get-webhook',
    'update-webhook',
    'delete-webhook',
    'list-webhook-deliveries',
    'redeliver-webhook',
    'test-webhook',
  ],
  events: [
    'events-introduction',
    'version-uploaded',
    'version-published',
    'version-unpublished',
    'version-ramp-step',
    'version-ramp-holding',
    'version-paused',
    'version-resumed',
    'version-pulled',
    'token-created',
    'token-revoked',
    'rule-created',
    'rule-deleted',
    'webhook-test',
  ],
}
const FOLDERS = [...new Set([...Object.keys(API_SLUGS), ...Object.keys(ADDED)])]
const SLUGS: Record<string, string[]> = Object.fromEntries(
  FOLDERS.map((folder) => [folder, [...(API_SLUGS[folder as keyof typeof API_SLUGS] ?? []), ...(ADDED[folder] ?? [])]]),
)

const { files } = await generate(await loadSpec(SPEC))
const pages = [...files.keys()].filter((f) => f.startsWith(`${PAGES_DIR}/`) && f.endsWith('.mdx'))

test('every fixed slug has exactly one page, and there are no others', () => {
  const expected = [
    'index',
    ...Object.entries(SLUGS).flatMap(([folder, slugs]) => slugs.map((s) => `${folder}/${s}`)),
  ].sort()
  const actual = pages.map((p) => p.slice(PAGES_DIR.length + 1, -'.mdx'.length)).sort()
  assert.deepEqual(actual, expected)
})

test('every webhook event in the spec has a page with its pointer, example and sidebar entry', async () => {
  const doc = (await import('yaml')).parse(await readFile(SPEC, 'utf8')) as { webhooks: Record<string, unknown> }
  const meta = files.get(`${PAGES_DIR}/events/_meta.ts`)!
  assert.match(files.get(`${PAGES_DIR}/_meta.ts`)!, /events: "Webhook events"/)
  for (const type of Object.keys(doc.webhooks)) {
    const pointer = `#/webhooks/${type}/post`
    const owners = pages.filter((p) => files.get(p)!.includes(`openapi: ${JSON.stringify(pointer)}`))
    assert.equal(owners.length, 1, `${type} has one page`)
    const page = files.get(owners[0]!)!
    assert.ok(page.includes(`# ${type}\n`), `${type}'s page is titled by it`)
    assert.ok(page.includes(`"type": ${JSON.stringify(type)}`), `${type}'s page shows its example`)
    assert.ok(meta.includes(`: ${JSON.stringify(type)},`), `${type} is in the sidebar`)
  }
})

test('every operation in the spec has a page that carries its pointer', async () => {
  const doc = (await import('yaml')).parse(await readFile(SPEC, 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>
  }
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, id: item[m]!.operationId })),
  )
  assert.equal(operations.length, 80)
  for (const { path, method, id } of operations) {
    const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`
    const owners = pages.filter((p) => files.get(p)!.includes(`openapi: ${JSON.stringify(pointer)}`))
    assert.equal(owners.length, 1, `${id} (${pointer}) has ${owners.length} pages`)
    assert.ok(files.get(owners[0]!)!.includes(`operationId: "${id}"`))
  }
})

test('each folder _meta lists its intro page first and every page once', () => {
  for (const [folder, slugs] of Object.entries(SLUGS)) {
    const meta = files.get(`${PAGES_DIR}/${folder}/_meta.ts`)
    assert.ok(meta, `${folder}/_meta.ts`)
    const keys = [...meta.matchAll(/^ {2}"?([\w-]+)"?:/gm)].map((m) => m[1])
    assert.equal(
      keys[0],
      slugs.find((s) => s.endsWith('-introduction')),
    )
    assert.deepEqual([...keys].sort(), [...slugs].sort())
  }
})

/** Where a file states that it is generated: its first lines, or for JSON (no comments) a member. */
function bannerOf(path: string, content: string): string {
  if (!path.endsWith('.json')) return content.split('\n').slice(0, 2).join('\n')
  const data = JSON.parse(content) as { 'x-generated'?: string; info?: { description?: { content?: string } } }
  return data['x-generated'] ?? data.info?.description?.content ?? ''
}

test('every generated file says it is generated', () => {
  for (const [path, content] of files) {
    assert.match(
      bannerOf(path, content),
      /Generated from openapi\/openapi\.yaml by scripts\/gen-api\.ts — do not edit/,
      path,
    )
  }
})
