import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, test } from 'node:test'
import { buildBlogMeta, META_BANNER } from '../../lib/blog/meta'
import { loadPosts } from '../../lib/blog/posts'
import { OUTPUTS, staleOutputs } from '../../scripts/gen-blog'
import { REPO_ROOT } from './helpers'

const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx')
const SCRIPT = path.join(REPO_ROOT, 'scripts/gen-blog.ts')

/** A copy of the blog sources and generated files in a temp dir, to run the generator against. */
function copyBlog(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ferry-gen-blog-'))
  cpSync(path.join(REPO_ROOT, 'pages/blog'), path.join(root, 'pages/blog'), { recursive: true })
  mkdirSync(path.join(root, 'lib/blog'), { recursive: true })
  cpSync(path.join(REPO_ROOT, OUTPUTS.index), path.join(root, OUTPUTS.index))
  return root
}

function runCheck(root: string) {
  return spawnSync(TSX, [SCRIPT, '--check'], { cwd: root, encoding: 'utf8' })
}

describe('generated blog files', () => {
  test('the committed _meta.ts and post index are fresh', () => {
    assert.deepEqual(staleOutputs(REPO_ROOT), [])
  })

  test('_meta lists "All posts" first, a separator per year with its posts newest first, then the browse pages', () => {
    const meta = readFileSync(path.join(REPO_ROOT, OUTPUTS.meta), 'utf8')
    assert.ok(meta.startsWith(META_BANNER))
    const keys = [...meta.matchAll(/^ {2}(?:"([^"]+)"|'([^']+)'|(\w+)):/gm)].map((m) => m[1] ?? m[2] ?? m[3])
    const posts = loadPosts('pages/blog', REPO_ROOT)
    assert.deepEqual(keys, ['index', '--2026', ...posts.map((p) => p.slug), '--browse', 'archive', 'tags', 'authors'])
  })

  test('buildBlogMeta puts each year under its own separator', () => {
    const posts = loadPosts('pages/blog', REPO_ROOT)
    const older = { ...posts[0]!, slug: 'older', title: 'Older', date: '2025-06-01' }
    const meta = buildBlogMeta([...posts, older])
    const at = (s: string) => meta.indexOf(s)
    assert.ok(at('"--2026"') < at(`"${posts[0]!.slug}"`))
    assert.ok(at(`"${posts.at(-1)!.slug}"`) < at('"--2025"'))
    assert.ok(at('"--2025"') < at('"older"') && at('"older"') < at("'--browse'"))
  })

  test('--check passes on a fresh copy and fails naming the stale _meta.ts', () => {
    const root = copyBlog()
    try {
      assert.equal(runCheck(root).status, 0)
      const metaFile = path.join(root, OUTPUTS.meta)
      writeFileSync(metaFile, readFileSync(metaFile, 'utf8').replace('"All posts"', '"Posts"'))
      const result = runCheck(root)
      assert.equal(result.status, 1)
      assert.match(result.stderr, /stale generated file\(s\): pages\/blog\/_meta\.ts/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('--check fails naming the post index when a post changed after generation', () => {
    const root = copyBlog()
    try {
      const post = path.join(root, 'pages/blog/private-apps.mdx')
      writeFileSync(post, `${readFileSync(post, 'utf8')}\nOne more paragraph of prose for the reader.\n`)
      const result = runCheck(root)
      assert.equal(result.status, 1)
      assert.match(result.stderr, /lib\/blog\/posts\.generated\.json/)
      assert.doesNotMatch(result.stderr, /_meta\.ts/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('the generator fails the build on an invalid post, naming file and field', () => {
    const root = copyBlog()
    try {
      const post = path.join(root, 'pages/blog/team-based-auth.mdx')
      writeFileSync(post, readFileSync(post, 'utf8').replace('tags: [team, security]', 'tags: [team, secrity]'))
      const result = runCheck(root)
      assert.equal(result.status, 1)
      assert.match(
        result.stderr,
        /front matter invalid: path=pages\/blog\/team-based-auth\.mdx:5 field=tags: unknown tag "secrity"/,
      )
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
