/** @module The `ferry` command: dispatch, each command's flags and help, exit codes. */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { FerryClient, type VersionFilters } from './api.ts'
import { CONNECTION_OPTIONS, connection, duration, parseCommand, percent, positionals } from './args.ts'
import { CliError, EXIT, usageError, type ExitCode } from './errors.ts'
import { promote, ramp, rollout, status } from './manage.ts'
import type { Io } from './output.ts'
import { importReleases } from './import.ts'
import { publish } from './publish.ts'
import { addKey, init, keygen, pushRoot, releaseKey, signRoot } from './tuf.ts'

const CONNECTION_HELP = `
Connection:
  --url <url>      Ferry server (default: $FERRY_URL)
  --token <token>  API token ferry_… (default: $FERRY_TOKEN; prefer the variable, flags show in process lists)
  -h, --help       This help

Exit codes: 0 done, 1 the server refused or failed (its problem is printed), 2 wrong usage or
configuration, 3 the server could not be reached.`

const FILTER_OPTIONS = { channel: { type: 'string' }, platform: { type: 'string' }, arch: { type: 'string' } } as const

/** `ferry mcp --http` listens here unless --port says otherwise (pages/docs/mcp.mdx). */
export const DEFAULT_MCP_PORT = 8765

export const HELP: Record<string, string> = {
  ferry: `Usage: ferry <command> [options]

Commands:
  publish <dir> --app <slug>               Upload an electron-builder or Tauri build output, one version per platform/arch
  import <dir> --app <slug>                Upload a folder of past releases, oldest first (migrating from another server)
  rollout <app> <version> <percent>        Set the rollout percentage of a version, or a ramp (1,10,50,100)
  promote <app> <version>                  Publish a draft version
  status <app>                             List an app's versions
  tuf <keygen|init|add-key|sign|push>      Signed update metadata (TUF): keys and root, made offline
  mcp                                      Serve the docs, the contract and a sandbox to AI agents (MCP over stdio or HTTP)
  server [--port <n>] [--data-dir <dir>]   Run the Ferry server itself, until SIGTERM or Ctrl-C
  backup <new folder> [--data-dir <dir>]   Copy the server's database, artifact files and secrets while it runs
  db query <sql> [--json]                  Run one read-only SQL statement on the server's database

Run ferry <command> --help for a command's options.
${CONNECTION_HELP}`,
  publish: `Usage: ferry publish <dir> --app <slug> [options]

Reads <dir>, an electron-builder output folder (latest*.yml, .exe/.blockmap, .dmg, -mac.zip,
.AppImage, .deb, .rpm, Squirrel RELEASES + .nupkg) or a Tauri v2 bundle folder (bundle/ with
nsis/, msi/, macos/, dmg/, appimage/, deb/, rpm/), and uploads one version per platform and
architecture it finds. Re-running it is safe: a version the server already has with the same
files (names and SHA-256) is reported as already published; one with other files is an error.

Options:
  --app <slug>          The app (required)
  --channel <name>      Channel (default: the one latest*.yml/beta*.yml names, else stable)
  --version <semver>    Version (default: from latest*.yml or the file names)
  --rollout <percent>   Share of devices offered the version, 0-100 (default 100)
  --notes <text>        Release notes (Markdown)
  --notes-file <file>   Release notes from a file
  --critical            Clients should install it without asking
  --intermediate        Every client below it must install it first
  --draft               Upload unpublished (publish later with ferry promote)
  --tuf-key <file>      The release key (PEM) that signs the app's TUF targets (default: the PEM in
                        $FERRY_TUF_KEY). An app with a TUF root needs it: the files are uploaded as
                        drafts, listed in new targets signed here, and published once the server
                        accepts them. The key is never sent.
${CONNECTION_HELP}`,
  tuf: `Usage: ferry tuf <command> …

Signed update metadata (TUF) for an app: ed25519 keys as PEM files, and the root that says which
keys sign what. Only push talks to Ferry; keep root keys on machines that never do.

Commands:
  keygen <file>                    Write a new ed25519 private key (PEM, mode 600) and print its key id
  init --out <root.json> --root-key <file>… --targets-key <file>… --online-key <online-key.json>
       [--root-threshold <n>] [--targets-threshold <n>] [--days <n>]
                                   Write root version 1, signed by every root key given as a private key
                                   (thresholds default to 1; online-key.json is GET /v1/apps/<app>/tuf/online-key.json)
  add-key <root.json> --role <root|targets> --key <file> --out <next.json> [--threshold <n>] [--days <n>]
                                   Write the next root version with a key added, unsigned
  sign <root.json> --key <file>    Add one root key's signature, in place
  push <root.json> --app <slug>    Store a signed root on the server
${CONNECTION_HELP}`,
  import: `Usage: ferry import <dir> --app <slug> [--channel <name>] [--draft] [--dry-run]

Uploads the past releases in <dir>, oldest first (semver order), so that clients far behind still
get a correct update path after a move to Ferry. <dir> is either
  - one folder per release, as downloaded from GitHub Releases per tag (v1.0.0/, v1.1.0/, …),
    each an electron-builder output or a Tauri bundle folder as ferry publish reads it, or
  - one flat folder of several versions, as a static host for electron-updater serves it:
    latest*.yml (naming only the newest), installers whose names carry their versions, Squirrel
    RELEASES with its .nupkg files. Files are grouped by the version in their names.
Each version is uploaded published at 100 % (raise or lower it later with ferry rollout). The whole
folder is hashed and compared with the server first: a version the server already has with the
same files is reported and skipped, one with other files stops the import before any upload, so
re-running it uploads nothing new. If an upload fails midway, fix the cause and run the same
command again: it continues where it stopped.

Options:
  --app <slug>       The app (required)
  --channel <name>   Channel for every version (default: the one each latest*.yml/beta*.yml names, else stable)
  --draft            Upload unpublished (publish later with ferry promote)
  --dry-run          Print the plan (version, channel, platform/arch, files, bytes) and upload nothing;
                     compared with the server when FERRY_URL and FERRY_TOKEN are set
${CONNECTION_HELP}`,
  rollout: `Usage: ferry rollout <app> <version> <percent | p1,p2,…> [--every <duration>] [--channel <name>] [--platform <name>] [--arch <name>]

Sets the rollout percentage (0-100) of every upload of <version> the filters match. A list of
percentages sets a ramp instead: the first now, each next one --every later (30m, 12h, 2d;
default 24h), paused time not counted. ferry status shows where it stands.
${CONNECTION_HELP}`,
  promote: `Usage: ferry promote <app> <version> [--rollout <percent>] [--channel <name>] [--platform <name>] [--arch <name>]

Publishes the drafts of <version> (uploaded with ferry publish --draft) the filters match,
optionally with a rollout percentage. A version stays on the channel it was uploaded to.
${CONNECTION_HELP}`,
  status: `Usage: ferry status <app> [--channel <name>] [--platform <name>] [--arch <name>] [--limit <n>] [--json]

Lists the app's versions, newest first: version, channel, platform/arch, published, rollout,
critical, created. --json prints them as JSON for scripts; --limit caps the list (default 50).
${CONNECTION_HELP}`,
  server: `Usage: ferry server [--port <n>] [--data-dir <dir>]

Runs the Ferry server (the same as npm run server in Ferry's checkout) until SIGTERM or Ctrl-C,
which let in-flight requests finish. It reads its configuration from FERRY_* variables (listed in
.env.example and on the docs' Environment variables page); the flags set two of them:

Options:
  --port <n>        FERRY_PORT: the port to listen on (default 8080; 0 picks a free one)
  --data-dir <dir>  FERRY_DATA_DIR: database, artifact files and generated secrets (default ./data),
                    relative to the folder ferry runs in
  -h, --help        This help`,
  backup: `Usage: ferry backup <new folder> [--data-dir <dir>]

Copies what the server configured by the same FERRY_* variables holds into <new folder>, while it
runs: SQLite's online backup of ferry.db (checked with SQLite's integrity check), every artifact
file the copy lists (each checked against its SHA-256), and the signup-key and jwt-secret files.
The folder is a data directory: restore by starting the server on it. On PostgreSQL
(FERRY_DATABASE_URL) the database is pg_dump's snapshot, ferry.dump (restore with pg_restore);
artifact files in object storage (FERRY_BLOB_URL) are left to the bucket. It refuses a folder
that is not empty. Keep backups out of git: they hold the secrets.

Options:
  --data-dir <dir>  FERRY_DATA_DIR: the server's data directory (default ./data), relative to
                    the folder ferry runs in
  -h, --help        This help

Exit codes: 0 done, 1 the copy failed (the reason is printed), 2 wrong usage or configuration.`,
  db: `Usage: ferry db query <sql> [--json] [--data-dir <dir>]

Runs one SQL statement on the database of the server configured by the same FERRY_* variables
(SQLite in <data dir>/ferry.db, or FERRY_DATABASE_URL) and prints the rows as a table, or with
--json one JSON object per row. The database cannot be changed through it: SQLite is opened
read-only, PostgreSQL runs the statement alone in a READ ONLY transaction that is rolled back;
a write is refused by the database (exit 1).

Options:
  --json            One JSON object per row (JSON Lines), for jq and scripts
  --data-dir <dir>  FERRY_DATA_DIR (default ./data), relative to the folder ferry runs in
  -h, --help        This help

Exit codes: 0 done, 1 the database refused the statement, 2 wrong usage or configuration.`,
  mcp: `Usage: ferry mcp [--http [--port <n>]] [--allow-writes] [--url <url>] [--token <token>]

A Model Context Protocol server on stdin/stdout, for an agent client (Claude, Cursor, VS Code) to
start, or with --http on http://127.0.0.1:<port>/mcp (Streamable HTTP). Its tools search and read the docs, list and describe the API's operations, and call an
operation against a sandbox (Ferry in this process, in memory, seeded with demo data) or, when
FERRY_URL is set, against that server with FERRY_TOKEN. Answers are checked against the contract.

Options:
  --allow-writes   Let the agent call POST, PATCH and DELETE operations on the real server
                   (without it only GET operations reach it; the sandbox always accepts writes)
  --http           Serve MCP over Streamable HTTP on 127.0.0.1 instead of stdio, until Ctrl-C
  --port <n>       The port for --http (default ${DEFAULT_MCP_PORT}; 0 picks a free one)
${CONNECTION_HELP}`,
}

const filtersOf = (v: { channel?: string; platform?: string; arch?: string }): VersionFilters => ({
  ...(v.channel ? { channel: v.channel } : {}),
  ...(v.platform ? { platform: v.platform } : {}),
  ...(v.arch ? { arch: v.arch } : {}),
})

/** One `ferry <name>` command: its arguments after the name. */
export type Command = (argv: string[], io: Io) => Promise<void>

const COMMANDS: Record<string, Command> = {
  async publish(argv, io) {
    const { values, positionals: args } = parseCommand('publish', () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
          ...CONNECTION_OPTIONS,
          app: { type: 'string' },
          channel: { type: 'string' },
          version: { type: 'string' },
          rollout: { type: 'string' },
          notes: { type: 'string' },
          'notes-file': { type: 'string' },
          critical: { type: 'boolean' },
          intermediate: { type: 'boolean' },
          draft: { type: 'boolean' },
          'tuf-key': { type: 'string' },
        },
      }),
    )
    if (values.help) return io.out(HELP.publish ?? '')
    const [dir = ''] = positionals('publish', args, ['dir'])
    if (!values.app) throw usageError('publish: --app <slug> is required')
    if (values.notes !== undefined && values['notes-file'] !== undefined)
      throw usageError('publish: pass --notes or --notes-file, not both')
    let notes = values.notes
    if (values['notes-file'] !== undefined) {
      try {
        notes = readFileSync(values['notes-file'], 'utf8')
      } catch (error) {
        throw usageError(
          `--notes-file: cannot read ${values['notes-file']}: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    }
    const rolloutValue = values.rollout === undefined ? undefined : percent('--rollout', values.rollout)
    const tufKey = await releaseKey(values['tuf-key'], io.env)
    const conn = connection(values, io.env)
    await publish(
      new FerryClient(conn),
      conn.url,
      {
        dir,
        app: values.app,
        critical: values.critical === true,
        intermediate: values.intermediate === true,
        draft: values.draft === true,
        ...(values.channel ? { channel: values.channel } : {}),
        ...(values.version ? { version: values.version } : {}),
        ...(rolloutValue !== undefined ? { rollout: rolloutValue } : {}),
        ...(notes !== undefined ? { notes } : {}),
        ...(tufKey ? { tufKey } : {}),
      },
      io,
    )
  },

  async tuf(argv, io) {
    const [sub = '', ...rest] = argv
    const { values, positionals: args } = parseCommand('tuf', () =>
      parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: {
          ...CONNECTION_OPTIONS,
          app: { type: 'string' },
          out: { type: 'string' },
          'root-key': { type: 'string', multiple: true },
          'targets-key': { type: 'string', multiple: true },
          'online-key': { type: 'string' },
          'root-threshold': { type: 'string' },
          'targets-threshold': { type: 'string' },
          threshold: { type: 'string' },
          role: { type: 'string' },
          key: { type: 'string' },
          days: { type: 'string' },
        },
      }),
    )
    if (values.help || sub === '' || sub === '--help' || sub === '-h') return io.out(HELP.tuf ?? '')
    const whole = (name: string, raw: string | undefined, fallback: number) => {
      if (raw === undefined) return fallback
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 1)
        throw usageError(`${name} must be a whole number of at least 1, not ${JSON.stringify(raw)}`)
      return n
    }
    const days = whole('--days', values.days, 365)
    const need = (name: string, value: string | undefined) => {
      if (!value) throw usageError(`tuf ${sub}: ${name} is required`)
      return value
    }
    if (sub === 'keygen') {
      const [file = ''] = positionals('tuf keygen', args, ['file'])
      return keygen(file, io)
    }
    if (sub === 'init')
      return init(
        {
          out: need('--out <file>', values.out),
          rootKeys: values['root-key'] ?? [],
          targetsKeys: values['targets-key'] ?? [],
          onlineKey: need('--online-key <file>', values['online-key']),
          rootThreshold: whole('--root-threshold', values['root-threshold'], 1),
          targetsThreshold: whole('--targets-threshold', values['targets-threshold'], 1),
          days,
        },
        io,
      )
    if (sub === 'add-key') {
      const [file = ''] = positionals('tuf add-key', args, ['root.json'])
      const role = values.role
      if (role !== 'root' && role !== 'targets') throw usageError('tuf add-key: --role must be root or targets')
      return addKey(
        file,
        {
          role,
          key: need('--key <file>', values.key),
          out: need('--out <file>', values.out),
          days,
          ...(values.threshold !== undefined ? { threshold: whole('--threshold', values.threshold, 1) } : {}),
        },
        io,
      )
    }
    if (sub === 'sign') {
      const [file = ''] = positionals('tuf sign', args, ['root.json'])
      return signRoot(file, need('--key <file>', values.key), io)
    }
    if (sub === 'push') {
      const [file = ''] = positionals('tuf push', args, ['root.json'])
      return pushRoot(new FerryClient(connection(values, io.env)), need('--app <slug>', values.app), file, io)
    }
    throw usageError(`unknown tuf command ${JSON.stringify(sub)}; tuf commands: keygen, init, add-key, sign, push`)
  },

  async import(argv, io) {
    const { values, positionals: args } = parseCommand('import', () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: {
          ...CONNECTION_OPTIONS,
          app: { type: 'string' },
          channel: { type: 'string' },
          draft: { type: 'boolean' },
          'dry-run': { type: 'boolean' },
        },
      }),
    )
    if (values.help) return io.out(HELP.import ?? '')
    const [dir = ''] = positionals('import', args, ['dir'])
    if (!values.app) throw usageError('import: --app <slug> is required')
    const dryRun = values['dry-run'] === true
    // A dry run needs no server; with one configured, it also says what the server already has.
    const offline = dryRun && !(values.url ?? io.env.FERRY_URL) && !(values.token ?? io.env.FERRY_TOKEN)
    const conn = offline ? undefined : connection(values, io.env)
    await importReleases(
      conn && new FerryClient(conn),
      conn?.url,
      {
        dir,
        app: values.app,
        draft: values.draft === true,
        dryRun,
        ...(values.channel ? { channel: values.channel } : {}),
      },
      io,
    )
  },

  async rollout(argv, io) {
    const { values, positionals: args } = parseCommand('rollout', () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: { ...CONNECTION_OPTIONS, ...FILTER_OPTIONS, every: { type: 'string' } },
      }),
    )
    if (values.help) return io.out(HELP.rollout ?? '')
    const [app = '', version = '', share = ''] = positionals('rollout', args, ['app', 'version', 'percent'])
    if (share.includes(',')) {
      const steps = share.split(',').map((p) => percent('<percent> list entry', p.trim()))
      if (steps.some((p, i) => i > 0 && p < (steps[i - 1] as number)))
        throw usageError(`a ramp's percentages must not decrease: ${share}`)
      await ramp(
        new FerryClient(connection(values, io.env)),
        app,
        version,
        steps,
        duration('--every', values.every ?? '24h'),
        filtersOf(values),
        io,
      )
      return
    }
    if (values.every !== undefined)
      throw usageError('--every applies to a ramp: give a list of percentages, like 1,10,50,100')
    const value = percent('<percent>', share)
    await rollout(new FerryClient(connection(values, io.env)), app, version, value, filtersOf(values), io)
  },

  async promote(argv, io) {
    const { values, positionals: args } = parseCommand('promote', () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: { ...CONNECTION_OPTIONS, ...FILTER_OPTIONS, rollout: { type: 'string' } },
      }),
    )
    if (values.help) return io.out(HELP.promote ?? '')
    const [app = '', version = ''] = positionals('promote', args, ['app', 'version'])
    const value = values.rollout === undefined ? undefined : percent('--rollout', values.rollout)
    await promote(new FerryClient(connection(values, io.env)), app, version, value, filtersOf(values), io)
  },

  async status(argv, io) {
    const { values, positionals: args } = parseCommand('status', () =>
      parseArgs({
        args: argv,
        allowPositionals: true,
        strict: true,
        options: { ...CONNECTION_OPTIONS, ...FILTER_OPTIONS, json: { type: 'boolean' }, limit: { type: 'string' } },
      }),
    )
    if (values.help) return io.out(HELP.status ?? '')
    const [app = ''] = positionals('status', args, ['app'])
    const limit = values.limit === undefined ? 50 : Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1)
      throw usageError(`--limit must be a whole number of at least 1, not ${JSON.stringify(values.limit)}`)
    await status(new FerryClient(connection(values, io.env)), app, filtersOf(values), limit, values.json === true, io)
  },
}

/**
 * Runs `ferry <argv>`; resolves to the exit code. Never prints the token: no message includes it.
 * `more` adds commands that live outside lib/ (`server`, `backup`, `db`, which run the server's own code,
 * and `mcp`, which runs mcp/).
 */
export async function main(argv: string[], io: Io, more: Record<string, Command> = {}): Promise<ExitCode> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? HELP[rest[0]] : undefined
    io.out(topic ?? HELP.ferry ?? '')
    return name === undefined ? EXIT.usage : EXIT.ok
  }
  const commands: Record<string, Command> = { ...COMMANDS, ...more }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  try {
    if (!command)
      throw usageError(
        `unknown command ${JSON.stringify(name)}; commands: ${Object.keys(commands).join(', ')} (see ferry --help)`,
      )
    await command(rest, io)
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    const token = io.env.FERRY_TOKEN
    // Belt and braces: a message quoting a server answer must still not leak the token.
    io.err(`ferry: ${token ? error.message.replaceAll(token, '<token>') : error.message}`)
    return error.exitCode
  }
}
