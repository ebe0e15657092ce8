/** The docs runner itself: extraction, output comparison and shell state behave as the guides rely on. */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { DocsCheckout } from '../../lib/docs-runner/checkout.ts'
import { compareOutput } from '../../lib/docs-runner/compare.ts'
import { STOP_SERVER_LINE, missingStopLine } from '../../lib/docs-runner/stop-server.ts'
import { extractBlocks } from '../../lib/docs-runner/extract.ts'
import { parseStartCommand } from '../../lib/docs-runner/server.ts'
import { PageRun } from '../../lib/docs-runner/run-page.ts'
import { guidePages } from '../../lib/docs-runner/pages.ts'
import { PageShell } from '../../lib/docs-runner/shell.ts'
import { pagesInSidebarOrder } from '../../lib/docs-runner/sidebar.ts'
import { UNCHECKED_LANGUAGES, checkSyntax } from '../../lib/docs-runner/syntax.ts'

const ctx = { ports: new Map([[8080, 43211]]) }
const page = [
  '# Page',
  '',
  '```bash runnable=server',
  'FERRY_LOG_LEVEL=debug npm run server',
  '```',
  '',
  '```bash runnable',
  'curl -s http://127.0.0.1:8080/v1/health',
  '```',
  '',
  '```json output',
  '{"status":"ok"}',
  '```',
  '',
  '<Tabs>',
  '  ```bash',
  '  echo "not runnable"',
  '  ```',
  '</Tabs>',
  '',
].join('\n')

test('blocks come out in page order with their line, meta and paired output', () => {
  const blocks = extractBlocks('p.mdx', page)
  assert.deepEqual(
    blocks.map((b) => [b.line, b.lang, b.runnable, b.startsServer, b.output]),
    [
      [3, 'bash', true, true, false],
      [7, 'bash', true, false, false],
      [11, 'json', false, false, true],
      [16, 'bash', false, false, false],
    ],
  )
  assert.equal(blocks[1]?.expected?.code, '{"status":"ok"}')
  assert.equal(blocks[3]?.code, 'echo "not runnable"')
  assert.throws(
    () => extractBlocks('p.mdx', '```json output\n{}\n```\n'),
    /p\.mdx:1: an output block must directly follow a runnable block/,
  )
})

test('volatile values are normalised, but a renamed field, a changed status or a different hash fails', () => {
  const shown =
    '{"id":"usr_AAAAAAAAAAAAAAAA","token":"eyJa.eyJb.c","createdAt":"2026-11-22T10:00:00.000Z","status":201,"sha256":"ab12"}'
  const same =
    '{"id":"usr_Zx81kd0Pq2LmN4bV","token":"eyJx.eyJy.z","createdAt":"2026-11-23T11:12:13.456Z","status":201,"sha256":"ab12"}'
  assert.equal(compareOutput(shown, same, ctx), undefined)
  assert.match(compareOutput(shown, same.replace('"createdAt"', '"created_at"'), ctx) ?? '', /JSON differs/)
  assert.match(compareOutput(shown, same.replace('201', '200'), ctx) ?? '', /JSON differs/)
  assert.match(compareOutput(shown, same.replace('ab12', 'ab13'), ctx) ?? '', /JSON differs/)
  assert.equal(compareOutput('see http://127.0.0.1:8080/v1/apps', 'see http://127.0.0.1:43211/v1/apps', ctx), undefined)
  assert.match(compareOutput('HTTP/1.1 204 No Content', 'HTTP/1.1 200 OK', ctx) ?? '', /line 1/)
})

test('the seconds a login limit has left are normalised, its status and wording are not', () => {
  const shown =
    'HTTP/1.1 429 Too Many Requests\nretry-after: 899\n{"status":429,"detail":"Too many failed logins for this email; try again in 899 seconds."}'
  assert.equal(compareOutput(shown, shown.replace(/899/g, '896'), ctx), undefined)
  assert.match(compareOutput(shown, shown.replace('429 Too Many', '401 Too Many'), ctx) ?? '', /line 1/)
  assert.match(compareOutput(shown, shown.replace('this email', 'this address'), ctx) ?? '', /line 3/)
})

test('calendar dates in JSON strings are normalised (telemetry days), nothing around them', () => {
  const shown = '{"from":"2026-11-22","items":[{"day":"2026-11-22","checks":4,"devices":3}]}'
  assert.equal(
    compareOutput(shown, '{"from":"2027-01-05","items":[{"day":"2027-01-05","checks":4,"devices":3}]}', ctx),
    undefined,
  )
  assert.match(
    compareOutput(shown, '{"from":"2027-01-05","items":[{"day":"2027-01-05","checks":5,"devices":3}]}', ctx) ?? '',
    /JSON differs/,
  )
  assert.match(
    compareOutput(shown, '{"since":"2027-01-05","items":[{"day":"2027-01-05","checks":4,"devices":3}]}', ctx) ?? '',
    /JSON differs/,
  )
  assert.match(compareOutput(shown, '{"from":"2027-01-05","items":[]}', ctx) ?? '', /JSON differs/)
  // Not a date, and not a JSON string: compared as written.
  assert.match(compareOutput('{"version":"2026-11-22"}', '{"version":"2026-13-22"}', ctx) ?? '', /JSON differs/)
  assert.match(compareOutput('day 2026-11-22', 'day 2026-11-23', ctx) ?? '', /line 1/)
})

test('a Tauri minisign signature (fresh key, timestamp) is normalised; a short stand-in and the fields around it are not', () => {
  const sig = (tail: string) =>
    `dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkK${tail.repeat(330)}==`
  const shown = `{"version":"1.1.0","signature":"${sig('A')}"}`
  assert.equal(compareOutput(shown, `{"version":"1.1.0","signature":"${sig('B')}"}`, ctx), undefined)
  assert.match(compareOutput(shown, `{"version":"1.2.0","signature":"${sig('B')}"}`, ctx) ?? '', /JSON differs/)
  assert.match(
    compareOutput(shown, `{"version":"1.1.0","signature":"dW50cnVzdGVkIGNvbW1lbnQ6IGEgc3RhbmQtaW4K"}`, ctx) ?? '',
    /JSON differs/,
  )
  const standIn = '{"signature":"dW50cnVzdGVkIGNvbW1lbnQ6IGEgc3RhbmQtaW4K"}'
  assert.match(compareOutput(standIn, standIn.replace('aW4K', 'aW5K'), ctx) ?? '', /JSON differs/)
})

test("a data directory's path: the checkout's location is ignored, the page's own folder is not", () => {
  const actual =
    '{"dataDir":"/tmp/ferry-docs-guides-x1/scratch/production-deploy/data","file":"/tmp/ferry-docs-guides-x1/scratch/production-deploy/data/jwt-secret"}'
  const shown =
    '{"dataDir":"/home/ada/ferry/scratch/production-deploy/data","file":"/home/ada/ferry/scratch/production-deploy/data/jwt-secret"}'
  assert.equal(compareOutput(shown, actual, ctx), undefined)
  assert.match(compareOutput(shown.replaceAll('/scratch/production-deploy', ''), actual, ctx) ?? '', /JSON differs/)
  assert.match(
    compareOutput(
      'copied from /srv/ferry/data/ferry.db',
      actual.replace(/.*"file":"([^"]*)".*/, 'copied from $1'),
      ctx,
    ) ?? '',
    /line 1/,
  )
  assert.equal(compareOutput('ls /home/ada/ferry/data', 'ls /tmp/ferry-docs-shell-Ab1/data', ctx), undefined)
})

test('a page that starts a server says to stop it right after its last command', () => {
  const page = (after: string) =>
    `# P\n\n\`\`\`bash runnable=server\nnpm run server\n\`\`\`\n\n\`\`\`bash runnable\ncurl -s x\n\`\`\`\n\n\`\`\`text output\nok\n\`\`\`\n\n${after}\n`
  const check = (source: string) => missingStopLine(source, extractBlocks('p.mdx', source))
  assert.equal(check(page(STOP_SERVER_LINE)), undefined)
  assert.match(check(page('More prose.')) ?? '', /^p\.mdx:13: the page starts a server \(line 3\)/)
  assert.match(check(page(`More prose.\n\n${STOP_SERVER_LINE}`)) ?? '', /^p\.mdx:13:/)
  const noServer = '```bash runnable\ncurl -s x\n```\n'
  assert.equal(check(noServer), undefined)
})

test('a shell keeps variables and the directory between blocks, and fails on the first failing command', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-runner-'))
  try {
    const shell = new PageShell(dir)
    assert.equal((await shell.run('TOKEN=abc\nshout() { echo "$1!"; }\nmkdir -p sub && cd sub')).status, 0)
    const next = await shell.run('echo "$TOKEN $(basename "$PWD") $(shout hi)"')
    assert.equal(next.stdout, 'abc sub hi!\n')
    const failed = await shell.run('false\necho unreachable')
    assert.notEqual(failed.status, 0)
    assert.equal(failed.stdout, '')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a server block must be npm run server with variables, nothing else', () => {
  assert.deepEqual(parseStartCommand('FERRY_LOG_LEVEL=debug npm run server'), { env: { FERRY_LOG_LEVEL: 'debug' } })
  assert.deepEqual(parseStartCommand('npm run server > ferry.log'), { env: {}, logFile: 'ferry.log' })
  assert.deepEqual(parseStartCommand('npm run --silent server > ferry.log'), {
    env: {},
    logFile: 'ferry.log',
    silent: true,
  })
  assert.deepEqual(parseStartCommand('FERRY_CACHE=off npm run -s server'), {
    env: { FERRY_CACHE: 'off' },
    silent: true,
  })
  assert.throws(() => parseStartCommand('npm run --verbose server'), /must be/)
  assert.throws(() => parseStartCommand('node server.js'), /must be/)
})

test('syntax checks catch broken shell, YAML, systemd units, nginx and Dockerfiles', () => {
  const block = (lang: string, code: string) => ({
    page: 'p',
    line: 1,
    lang,
    meta: '',
    code,
    runnable: false,
    startsServer: false,
    output: false,
  })
  assert.match(checkSyntax(block('bash', 'curl -H Authorization: <token>')) ?? '', /bash -n/)
  assert.equal(checkSyntax(block('bash', 'curl -H "Authorization: Bearer $TOKEN" http://x')), undefined)
  assert.match(checkSyntax(block('yaml', 'services:\n  a: [\n')) ?? '', /YAML/)
  assert.match(
    checkSyntax(block('yaml', 'services:\n  ferry:\n    ports: ["8080:8080"]\n')) ?? '',
    /neither image nor build/,
  )
  assert.match(checkSyntax(block('ini', '[Service]\nExecStrat=/usr/bin/npm run server\n')) ?? '', /ExecStrat/)
  assert.match(checkSyntax(block('nginx', 'server {\n  listen 443 ssl\n}\n')) ?? '', /does not end with ";"/)
  assert.match(checkSyntax(block('nginx', 'server {\n  listen 443 ssl;\n')) ?? '', /unclosed/)
  assert.match(checkSyntax(block('dockerfile', 'FROM node:20\nCOPYY . .\n')) ?? '', /COPYY/)
  assert.match(checkSyntax(block('ts', 'const x = {')) ?? '', /TypeScript/)
  assert.match(
    checkSyntax(block('csharp', 'var updates = new UpdateManager("x")\nif (x {\n}')) ?? '',
    /^line 2: error CS1525/,
  )
  assert.equal(
    checkSyntax(block('csharp', 'var update = await updates.CheckForUpdatesAsync();\nif (update != null) {\n}')),
    undefined,
  )
})

test('a language without a checker fails unless listed as unchecked with a reason', () => {
  const block = (lang: string) => ({
    page: 'p',
    line: 1,
    lang,
    meta: '',
    code: 'anything',
    runnable: false,
    startsServer: false,
    output: false,
  })
  assert.match(checkSyntax(block('kotlin')) ?? '', /no syntax check for language "kotlin"/)
  assert.match(checkSyntax(block('')) ?? '', /names no language/)
  for (const lang of Object.keys(UNCHECKED_LANGUAGES)) assert.equal(checkSyntax(block(lang)), undefined, lang)
})

test(
  'a failing block is reported with its page, line and command, against a real server',
  { timeout: 60_000 },
  async () => {
    const source = [
      '```bash runnable',
      'curl -s http://127.0.0.1:8080/v1/health | jq -r .status',
      '```',
      '',
      '```text output',
      'degraded',
      '```',
      '',
      '```bash runnable',
      'curl -sf http://127.0.0.1:8080/v1/nope',
      '```',
      '',
    ].join('\n')
    const [health, missing] = extractBlocks('tests/p.mdx', source).filter((b) => b.runnable)
    const run = new PageRun(join(import.meta.dirname, '..', '..'), 'tests/p.mdx')
    try {
      const wrongOutput = await run.runBlock(health!)
      assert.match(
        wrongOutput ?? '',
        /^tests\/p\.mdx:1: curl -s http:\/\/127\.0\.0\.1:8080\/v1\/health \| jq -r \.status\noutput differs at line 1: page shows "degraded", command printed "ok"/,
      )
      const failed = await run.runBlock(missing!)
      assert.match(
        failed ?? '',
        /^tests\/p\.mdx:9: curl -sf http:\/\/127\.0\.0\.1:8080\/v1\/nope\nexited with status 22/,
      )
    } finally {
      await run.stop()
    }
  },
)

test(
  'a second server block restarts the server with its variables, on the same port and data',
  { timeout: 90_000 },
  async () => {
    const source = [
      '```bash runnable=server',
      'npm run server > ferry.log',
      '```',
      '',
      '```bash runnable',
      'FERRY=http://127.0.0.1:8080',
      'cp data/jwt-secret secret-before',
      'curl -s "$FERRY/v1/health" | jq -r .status',
      '```',
      '',
      '```text output',
      'ok',
      '```',
      '',
      '```bash runnable=server',
      'FERRY_TELEMETRY=off npm run --silent server > ferry.log',
      '```',
      '',
      '```json output',
      '{"level":30,"time":1795353807835,"pid":31968,"hostname":"vm","url":"http://127.0.0.1:8080","dataDir":"/home/ada/ferry/data","publicUrl":"(request origin)","telemetry":false,"cache":"memory","loginLimits":"memory","msg":"listening"}',
      '```',
      '',
      '```bash runnable',
      'cmp -s data/jwt-secret secret-before && echo "same data"',
      'curl -s "$FERRY/v1/health" | jq -r .status',
      'grep -c \'"msg":"listening"\' ferry.log',
      // npm's banner: written by the first start, not by the --silent one.
      "grep -c '^> ferry@' ferry.log",
      '```',
      '',
      '```text output',
      'same data',
      'ok',
      '2',
      '1',
      '```',
      '',
    ].join('\n')
    const blocks = extractBlocks('tests/p.mdx', source).filter((b) => b.runnable)
    const run = new PageRun(join(import.meta.dirname, '..', '..'), 'tests/p.mdx')
    try {
      for (const block of blocks) assert.equal(await run.runBlock(block), undefined)
    } finally {
      await run.stop()
    }
  },
)

test('the guides run in the order of the sidebar: each page once, a folder after its page, the docs before the posts', async () => {
  const root = join(import.meta.dirname, '..', '..')
  const order = await pagesInSidebarOrder(root)
  assert.deepEqual([...order].sort(), guidePages(root))
  const at = (page: string) => {
    const i = order.indexOf(page)
    assert.notEqual(i, -1, `${page} is not in the order`)
    return i
  }
  const sequence = [
    'pages/docs/intro.mdx',
    'pages/docs/getting-started.mdx',
    'pages/docs/getting-started/local-deploy.mdx',
    'pages/docs/getting-started/logging.mdx',
    'pages/docs/quickstart-electron.mdx',
    'pages/docs/migrating.mdx',
    'pages/docs/migrating/github-releases.mdx',
    'pages/docs/migrating/static-folder.mdx',
    'pages/docs/telemetry.mdx',
    'pages/docs/writing-docs.mdx',
    'pages/blog/fetch-latest-version.mdx',
    'pages/blog/local-development.mdx',
  ]
  for (let i = 1; i < sequence.length; i++)
    assert.ok(at(sequence[i - 1]!) < at(sequence[i]!), `${sequence[i - 1]} comes before ${sequence[i]} in the sidebar`)
})

test(
  'pages in one checkout: a new shell at its root for each, the files of the pages before, and git status for what they leave',
  { timeout: 90_000 },
  async () => {
    const root = join(import.meta.dirname, '..', '..')
    const checkout = new DocsCheckout(root, 'runner-test')
    try {
      assert.deepEqual(checkout.leftovers(), [], 'a fresh checkout has nothing to report')
      const first = extractBlocks(
        'tests/a.mdx',
        ['```bash runnable', 'mkdir -p scratch/a && cd scratch/a && echo kept > note', 'SHARED=yes', '```', ''].join(
          '\n',
        ),
      )
      const second = extractBlocks(
        'tests/b.mdx',
        [
          '```bash runnable',
          'echo "${SHARED:-unset} $(test -f package.json && echo root) $(cat scratch/a/note)"',
          '```',
          '',
          '```text output',
          'unset root kept',
          '```',
          '',
        ].join('\n'),
      )
      for (const [page, blocks] of [
        ['tests/a.mdx', first],
        ['tests/b.mdx', second],
      ] as const) {
        const run = new PageRun(root, page, checkout)
        try {
          for (const block of blocks) assert.equal(await run.runBlock(block), undefined)
        } finally {
          await run.stop()
        }
      }
      assert.deepEqual(checkout.leftovers(), [], 'scratch/ is ignored')
      writeFileSync(join(checkout.dir, 'login.json'), '{}')
      writeFileSync(join(checkout.dir, 'server', 'app.ts'), '// changed')
      assert.deepEqual(checkout.leftovers(), [' M server/app.ts', '?? login.json'])
    } finally {
      checkout.remove()
    }
  },
)
