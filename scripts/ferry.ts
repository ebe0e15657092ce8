/**
 * `ferry`: publish builds to a Ferry server and manage their rollout from a release pipeline
 * (`npm run ferry -- publish dist --app my-app`). The logic is in lib/ferry-cli/.
 */
import { main } from '../lib/ferry-cli/commands.ts'

// `ferry status … | head`: a reader that stops early closes the pipe; stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(process.exitCode ?? 0)
})

process.exitCode = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: () => Date.now(),
})
