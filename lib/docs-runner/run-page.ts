/**
 * @module Runs one page's runnable blocks against a freshly started server and checks each
 * against the output block the page shows after it. The page runs in a checkout of its own, or
 * in one it shares with the pages before it (as a reader follows several guides in one checkout);
 * either way its shell starts at the checkout's root, as in a new terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DocsCheckout } from './checkout.ts'
import { compareOutput, type RunContext } from './compare.ts'
import type { CodeBlock } from './extract.ts'
import { freePort, parseStartCommand, startDocsServer, type DocsServer, type StartCommand } from './server.ts'
import { PageShell } from './shell.ts'

export const SHOWN_PORT = 8080

/** Where a failure happened, for messages: `pages/docs/x.mdx:42: curl …` */
export function blockLabel(block: CodeBlock): string {
  const first = block.code.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? ''
  return `${block.page}:${block.line}: ${first.trim().slice(0, 100)}`
}

/** The server's log lines up to and including `listening` (later lines are requests, including the runner's health probe). */
function startupLog(log: string): string {
  const lines = log.split('\n')
  const end = lines.findIndex((l) => l.includes('"msg":"listening"'))
  return lines.slice(0, end + 1).join('\n')
}

export class PageRun {
  readonly workdir: string
  private readonly shell: PageShell
  private readonly shellState: string
  /** Set when this run made the checkout, and so removes it at the end. */
  private readonly ownCheckout: DocsCheckout | undefined
  private server: DocsServer | undefined
  private readonly ctx: RunContext = { ports: new Map() }

  /** Without `checkout`, the page gets a fresh one of its own. */
  constructor(repoRoot: string, page: string, checkout?: DocsCheckout) {
    const used = checkout ?? new DocsCheckout(repoRoot, page)
    this.ownCheckout = checkout ? undefined : used
    this.workdir = used.dir
    this.shellState = mkdtempSync(join(tmpdir(), 'ferry-docs-shell-'))
    this.shell = new PageShell(this.workdir, this.shellState)
  }

  /**
   * Starts the server. A page's second `runnable=server` block is a restart, as a reader stops
   * the server (Ctrl+C) and starts it with other settings: same data directory, and the same
   * port, so URLs the page keeps in shell variables still reach it.
   */
  private async start(command: StartCommand): Promise<void> {
    const port = this.server?.port ?? (await freePort())
    await this.server?.stop()
    this.server = undefined
    this.ctx.ports.set(SHOWN_PORT, port)
    if (command.env.FERRY_PORT) this.ctx.ports.set(Number(command.env.FERRY_PORT), port)
    this.server = await startDocsServer(this.workdir, command, port)
  }

  /** Runs one block; resolves to a failure message, or `undefined` when it ran and matched. */
  async runBlock(block: CodeBlock): Promise<string | undefined> {
    const where = blockLabel(block)
    if (block.startsServer) {
      try {
        await this.start(parseStartCommand(block.code))
      } catch (error) {
        return `${where}\n${(error as Error).message}`
      }
      const diff = block.expected && compareOutput(block.expected.code, startupLog(this.server?.log() ?? ''), this.ctx)
      return diff ? `${where}\nserver log ${diff}` : undefined
    }
    // A page that never starts one gets a server it cannot see the data of: nothing of it lands in the checkout.
    if (!this.server) await this.start({ env: { FERRY_DATA_DIR: join(this.shellState, 'data') } })
    let code = block.code
    for (const [shown, real] of this.ctx.ports)
      code = code.replace(new RegExp(`(127\\.0\\.0\\.1|localhost):${shown}\\b`, 'g'), `$1:${real}`)
    const result = await this.shell.run(code)
    if (result.timedOut) return `${where}\ntimed out after 60 s\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`
    if (result.status !== 0)
      return `${where}\nexited with status ${result.status}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`
    if (!block.expected) return undefined
    const diff = compareOutput(block.expected.code, result.stdout, this.ctx)
    return diff ? `${where}\n${diff}\nstderr:\n${result.stderr}` : undefined
  }

  /** Stops the page's server (a reader's Ctrl+C); removes the checkout only if it was the page's own. */
  async stop(): Promise<void> {
    await this.server?.stop()
    this.server = undefined
    rmSync(this.shellState, { recursive: true, force: true })
    this.ownCheckout?.remove()
  }
}
