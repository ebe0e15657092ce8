/**
 * @module The contract as a git commit has it (`git show <ref>:openapi/openapi.yaml`), for
 * comparing a pull request with its base. Each failure names the ref, and the file and line.
 */
import { execFileSync } from 'node:child_process'
import { parseDocument } from 'yaml'

export class GitContractError extends Error {}

function git(root: string, args: string[]): { ok: true; out: string } | { ok: false; err: string } {
  try {
    return {
      ok: true,
      out: execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      }),
    }
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr
    return {
      ok: false,
      err: (typeof stderr === 'string' && stderr.trim()) || (error instanceof Error ? error.message : String(error)),
    }
  }
}

/** The repository root of `dir`; throws when `dir` is not in a git checkout. */
export function gitRoot(dir: string): string {
  const top = git(dir, ['rev-parse', '--show-toplevel'])
  if (!top.ok) throw new GitContractError(`${dir} is not in a git checkout: ${top.err}`)
  return top.out.trim()
}

/** `file` (relative to the root) at commit `ref`, parsed; `$ref`s are left as they are. */
export function contractAtRef(root: string, ref: string, file: string): Record<string, unknown> {
  // `--end-of-options` keeps a ref such as `--output=x` from being read as an option.
  const commit = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
  if (!commit.ok)
    throw new GitContractError(
      `git ref ${JSON.stringify(ref)} does not name a commit in ${root} (fetch it first; in GitHub Actions check out with fetch-depth: 0)`,
    )
  const shown = git(root, ['show', `${commit.out.trim()}:${file}`])
  if (!shown.ok)
    throw new GitContractError(`git ref ${JSON.stringify(ref)} has no ${file}: ${shown.err.split('\n')[0] ?? ''}`)
  const doc = parseDocument(shown.out, { prettyErrors: false })
  const syntax = doc.errors[0]
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? 1
    throw new GitContractError(`${file} at ${ref}, line ${line}: YAML syntax: ${syntax.message.split('\n')[0] ?? ''}`)
  }
  const value: unknown = doc.toJS()
  if (!value || typeof value !== 'object' || Array.isArray(value) || !('paths' in value))
    throw new GitContractError(`${file} at ${ref} is not an OpenAPI document (no "paths")`)
  return value as Record<string, unknown>
}
