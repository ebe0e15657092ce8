/**
 * `npm run build`: the site's build steps, with the work that needs nothing from Next's output
 * running beside the compile instead of after it, and each step's time printed at the end:
 *   1. theme-css (styles/theme.generated.css, which the compile imports);
 *   2. `next build`, and beside it, at a lower CPU priority so the compile keeps the cores it
 *      wants: the social cards of pages/ into their cache (scripts/social-images.ts) and Ferry
 *      Console (scripts/build-console.ts);
 *   3. postbuild (scripts/postbuild.ts): feeds, sitemap, twins, the cards copied to out/og/, the link check.
 * Any step failing fails the build with its exit code; the side steps are stopped then.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { setPriority } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const bin = (name: string) => join(root, 'node_modules', '.bin', name)
const timings: [string, number][] = []

type Step = { name: string; child: ChildProcess; done: Promise<number> }

function start(name: string, command: string, args: string[], nice = 0): Step {
  const started = performance.now()
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  // Lower priority for the side steps: they fill the gaps the compile leaves on the cores.
  if (nice && child.pid) setPriority(child.pid, nice)
  const done = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(`build: ${name} did not start: ${error.message}`)
      resolve(1)
    })
    child.on('exit', (code, signal) => {
      timings.push([name, (performance.now() - started) / 1000])
      resolve(code ?? (signal ? 1 : 0))
    })
  })
  return { name, child, done }
}

function fail(step: string, code: number, others: Step[]): never {
  for (const other of others) if (other.child.exitCode === null && other.child.pid) other.child.kill('SIGTERM')
  console.error(`build: ${step} failed (exit ${code})`)
  process.exit(code)
}

const began = performance.now()
const theme = start('theme-css', bin('tsx'), ['scripts/theme-css.ts'])
const themeCode = await theme.done
if (themeCode !== 0) fail('theme-css', themeCode, [])

const beside = [
  start('social images (beside next build)', bin('tsx'), ['scripts/social-images.ts'], 10),
  start('console (beside next build)', bin('tsx'), ['scripts/build-console.ts'], 10),
]
const next = start('next build', bin('next'), ['build'])
const nextCode = await next.done
if (nextCode !== 0) fail('next build', nextCode, beside)
for (const step of beside) {
  const code = await step.done
  if (code !== 0) fail(step.name, code, beside)
}
const post = start('postbuild', bin('tsx'), ['scripts/postbuild.ts'])
const postCode = await post.done
if (postCode !== 0) fail('postbuild', postCode, [])

console.log(`build: ${((performance.now() - began) / 1000).toFixed(1)} s in all`)
for (const [name, seconds] of timings) console.log(`  ${name.padEnd(36)} ${seconds.toFixed(1)} s`)
