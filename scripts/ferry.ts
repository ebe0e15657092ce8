/**
 * `ferry`: publish builds to a Ferry server and manage their rollout from a release pipeline
 * (`npm run ferry -- publish dist --app my-app`). The logic is in lib/ferry-cli/.
 */
import { main } from '../lib/ferry-cli/commands.ts'

process.exitCode = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  now: () => Date.now(),
})
