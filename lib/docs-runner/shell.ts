/**
 * @module Runs one page's shell blocks in bash, one after another, as a reader would in one
 * terminal: variables and functions a block defines and the directory it moves to carry over to the next block.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ShellResult {
  status: number
  stdout: string
  stderr: string
  timedOut: boolean
}

export class PageShell {
  private readonly state: string
  private readonly cwdFile: string

  /** `meta` keeps the shell's variables and directory between blocks; outside the checkout, so a page's leftovers are its own. */
  constructor(
    readonly workdir: string,
    meta = join(workdir, '.docs-runner'),
  ) {
    mkdirSync(meta, { recursive: true })
    this.state = join(meta, 'env.sh')
    this.cwdFile = join(meta, 'cwd')
    writeFileSync(this.state, '')
    writeFileSync(this.cwdFile, workdir)
  }

  /** Runs `code` with `set -eo pipefail`; the variables and functions it defines are kept for the next block. */
  run(code: string, timeoutMs = 60_000): Promise<ShellResult> {
    const script = [
      'set -a',
      `source ${JSON.stringify(this.state)}`,
      `cd "$(cat ${JSON.stringify(this.cwdFile)})"`,
      `trap '{ export -p; declare -f; } > ${JSON.stringify(this.state)}; pwd > ${JSON.stringify(this.cwdFile)}' EXIT`,
      'set -eo pipefail',
      code,
    ].join('\n')
    return new Promise((done) => {
      const child = spawn('bash', ['-c', script], { cwd: this.workdir, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      let timedOut = false
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
      })
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString()
      })
      const timer = setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, timeoutMs)
      child.once('close', (status) => {
        clearTimeout(timer)
        done({ status: status ?? 1, stdout, stderr, timedOut })
      })
    })
  }
}
