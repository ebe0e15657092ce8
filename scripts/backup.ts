/**
 * `npm run backup -- <folder>` in Ferry's checkout: `ferry backup` (scripts/ferry-data.ts), with
 * FERRY_DATA_DIR (default ./data) taken from the checkout's root like the server's, and the new
 * folder named from where npm was invoked.
 */
import { resolve } from 'node:path'
import { main } from '../lib/ferry-cli/commands.ts'
import { backupCommand } from './ferry-data.ts'

const env = { ...process.env, FERRY_DATA_DIR: resolve(process.env.FERRY_DATA_DIR || 'data') }
if (process.env.npm_lifecycle_event === 'backup' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD)

process.exitCode = await main(
  ['backup', ...process.argv.slice(2)],
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env,
    now: () => Date.now(),
  },
  { backup: backupCommand },
)
