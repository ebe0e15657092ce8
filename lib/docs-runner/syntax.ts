/**
 * @module Checks for blocks that cannot run in a test (Docker, systemd, TLS proxies): each is
 * parsed as its language, so a typo in a shown config or command fails the test.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { parseAllDocuments } from 'yaml'
import type { CodeBlock } from './extract.ts'

function bashSyntax(code: string): string | undefined {
  const r = spawnSync('bash', ['-n'], { input: code, encoding: 'utf8' })
  return r.status === 0 ? undefined : `bash -n: ${r.stderr.trim()}`
}

function jsonSyntax(code: string): string | undefined {
  try {
    JSON.parse(code)
    return undefined
  } catch {
    // Log output: one JSON value per line.
  }
  for (const [n, line] of code.split('\n').entries()) {
    if (line.trim() === '') continue
    try {
      JSON.parse(line)
    } catch (error) {
      return `line ${n + 1} is not JSON: ${(error as Error).message}`
    }
  }
  return undefined
}

function yamlSyntax(code: string): string | undefined {
  const docs = parseAllDocuments(code)
  const list = Array.isArray(docs) ? docs : [docs]
  for (const doc of list) {
    const error = doc.errors[0]
    if (error) return `YAML: ${error.message}`
  }
  const first = list[0]?.toJS() as Record<string, unknown> | undefined
  // A compose file: every service needs something to run.
  if (first && typeof first === 'object' && 'services' in first) {
    const services = first.services as Record<string, Record<string, unknown> | null>
    for (const [name, service] of Object.entries(services ?? {})) {
      if (!service || (!('image' in service) && !('build' in service)))
        return `compose: service ${name} has neither image nor build`
    }
  }
  return undefined
}

const DOCKERFILE_INSTRUCTIONS = new Set([
  'FROM',
  'RUN',
  'CMD',
  'LABEL',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'ENTRYPOINT',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
])

function dockerfileSyntax(code: string): string | undefined {
  let continued = false
  let sawFrom = false
  for (const [n, raw] of code.split('\n').entries()) {
    const line = raw.trim()
    const wasContinued = continued
    continued = line.endsWith('\\')
    if (line === '' || line.startsWith('#') || wasContinued) continue
    const word = line.split(/\s+/)[0]?.toUpperCase() ?? ''
    if (!DOCKERFILE_INSTRUCTIONS.has(word)) return `line ${n + 1}: unknown Dockerfile instruction ${word}`
    if (word === 'FROM') sawFrom = true
    else if (!sawFrom && word !== 'ARG') return `line ${n + 1}: ${word} before the first FROM`
  }
  return sawFrom ? undefined : 'no FROM instruction'
}

const SYSTEMD_KEYS: Record<string, Set<string>> = {
  Unit: new Set([
    'Description',
    'Documentation',
    'After',
    'Before',
    'Wants',
    'Requires',
    'BindsTo',
    'PartOf',
    'Conflicts',
    'StartLimitIntervalSec',
    'StartLimitBurst',
  ]),
  Service: new Set([
    'Type',
    'User',
    'Group',
    'WorkingDirectory',
    'Environment',
    'EnvironmentFile',
    'ExecStart',
    'ExecStartPre',
    'ExecReload',
    'ExecStop',
    'KillSignal',
    'KillMode',
    'TimeoutStopSec',
    'TimeoutStartSec',
    'Restart',
    'RestartSec',
    'NoNewPrivileges',
    'ProtectSystem',
    'ProtectHome',
    'PrivateTmp',
    'ReadWritePaths',
    'StateDirectory',
    'LimitNOFILE',
    'StandardOutput',
    'StandardError',
    'SyslogIdentifier',
    'UMask',
  ]),
  Install: new Set(['WantedBy', 'RequiredBy', 'Alias']),
  Timer: new Set(['OnCalendar', 'OnBootSec', 'OnUnitActiveSec', 'Persistent', 'Unit', 'RandomizedDelaySec']),
}

/** ini blocks: sections and `Key=Value` lines; a block with systemd sections must use known directives. */
function iniSyntax(code: string): string | undefined {
  let section: string | undefined
  const systemd = /^\[(Unit|Service|Install|Timer)\]$/m.test(code)
  for (const [n, raw] of code.split('\n').entries()) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[([^\]]+)\]$/.exec(line)
    if (header) {
      section = header[1]
      if (systemd && !(section! in SYSTEMD_KEYS)) return `line ${n + 1}: unknown systemd section [${section}]`
      continue
    }
    const kv = /^([A-Za-z][\w.-]*)\s*=\s*(.*)$/.exec(line)
    if (!kv) return `line ${n + 1}: not a "Key=Value" line: ${line}`
    if (systemd) {
      if (!section) return `line ${n + 1}: ${kv[1]} outside a section`
      if (!SYSTEMD_KEYS[section]?.has(kv[1]!))
        return `line ${n + 1}: ${kv[1]} is not a [${section}] directive this check knows`
      if (kv[2] === '') return `line ${n + 1}: ${kv[1]} has no value`
    }
  }
  if (systemd && !/^\[Service\]$/m.test(code) && !/^\[Timer\]$/m.test(code))
    return 'a systemd unit needs a [Service] or [Timer] section'
  return undefined
}

/** Strips comments and quoted strings so braces and semicolons can be counted. */
function stripConfig(code: string): string {
  return code
    .split('\n')
    .map((l) => l.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""').replace(/#.*$/, ''))
    .join('\n')
}

function bracesBalanced(code: string): string | undefined {
  let depth = 0
  for (const [n, line] of stripConfig(code).split('\n').entries()) {
    for (const ch of line) {
      if (ch === '{') depth++
      if (ch === '}' && --depth < 0) return `line ${n + 1}: "}" without a matching "{"`
    }
  }
  return depth === 0 ? undefined : `${depth} unclosed "{"`
}

/** nginx: balanced braces, and every directive ends with ";" (or opens a block). */
function nginxSyntax(code: string): string | undefined {
  const braces = bracesBalanced(code)
  if (braces) return braces
  for (const [n, raw] of stripConfig(code).split('\n').entries()) {
    const line = raw.trim()
    if (line === '' || line.endsWith(';') || line.endsWith('{') || line === '}') continue
    return `line ${n + 1}: directive does not end with ";": ${line}`
  }
  return undefined
}

function scriptSyntax(code: string, lang: string): string | undefined {
  const jsx = lang === 'tsx'
  const out = ts.transpileModule(code, {
    reportDiagnostics: true,
    fileName: jsx ? 'block.tsx' : 'block.ts',
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      ...(jsx ? { jsx: ts.JsxEmit.Preserve } : {}),
    },
  })
  const d = out.diagnostics?.[0]
  return d ? `TypeScript: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}` : undefined
}

/**
 * C# through Mono's `mcs --parse` (parsing only: the snippets call libraries not installed here).
 * A block of statements is parsed as the body of an async method.
 */
function csharpSyntax(code: string): string | undefined {
  const unit = /^\s*(using|namespace|class|public|internal|static)\b/m.test(
    code.split('\n').find((l) => l.trim() !== '') ?? '',
  )
  const wrapped = unit ? code : `class Block { async System.Threading.Tasks.Task Run() {\n${code}\n} }\n`
  const dir = mkdtempSync(join(tmpdir(), 'ferry-docs-cs-'))
  try {
    writeFileSync(join(dir, 'block.cs'), wrapped)
    const r = spawnSync('mcs', ['--parse', 'block.cs'], { cwd: dir, encoding: 'utf8' })
    if (r.error) return `mcs could not run (${r.error.message}); install mono-mcs`
    if (r.status === 0) return undefined
    const first = /block\.cs\((\d+),\d+\): (error .*)/.exec(r.stdout + r.stderr)
    if (!first) return `mcs --parse: ${(r.stdout + r.stderr).trim()}`
    return `line ${Number(first[1]) - (unit ? 0 : 1)}: ${first[2]}`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Languages shown without a check, each with the reason. Any other language without a checker
 * fails the docs check, so a new one gets a checker or a reason here.
 */
export const UNCHECKED_LANGUAGES: Readonly<Record<string, string>> = {
  text: 'plain text: output and file listings, not a language',
  markdown: 'every text is Markdown; the pages show Markdown as an example of writing docs',
  html: 'HTML parsers recover from any input, so a parse would accept every block',
  swift: 'no Swift compiler is packaged for the Debian release the machines run',
}

/** A reason the block is malformed, or `undefined`. Output blocks and `UNCHECKED_LANGUAGES` pass. */
export function checkSyntax(block: CodeBlock): string | undefined {
  switch (block.lang) {
    case 'bash':
    case 'sh':
    case 'shell':
      return block.startsServer ? undefined : bashSyntax(block.code)
    case 'json':
      return jsonSyntax(block.code)
    case 'yaml':
    case 'yml':
      return yamlSyntax(block.code)
    case 'dockerfile':
      return dockerfileSyntax(block.code)
    case 'ini':
    case 'systemd':
      return iniSyntax(block.code)
    case 'nginx':
      return nginxSyntax(block.code)
    case 'caddy':
    case 'caddyfile':
      return bracesBalanced(block.code)
    case 'ts':
    case 'typescript':
    case 'js':
    case 'javascript':
    case 'tsx':
      return scriptSyntax(block.code, block.lang)
    case 'csharp':
    case 'cs':
      return csharpSyntax(block.code)
    default:
      if (block.lang in UNCHECKED_LANGUAGES) return undefined
      return block.lang === ''
        ? 'the block names no language: name one after the fence (```text for plain text)'
        : `no syntax check for language "${block.lang}": add one to lib/docs-runner/syntax.ts or list it in UNCHECKED_LANGUAGES with the reason`
  }
}
