/**
 * @module The Dockerfile read as Docker reads it: instructions joined across `\` continuations
 * (comment lines inside one dropped), split into stages at each FROM, with the argument forms the
 * image tests need (COPY's flags, sources and destination, ENV pairs, exec or shell form).
 */

export interface Instruction {
  /** 1-based line of the instruction's first line in the Dockerfile. */
  line: number
  keyword: string
  args: string
}

export interface Stage {
  from: string
  name: string | undefined
  instructions: Instruction[]
}

export function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = []
  let pending: Instruction | undefined
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim()
    if (line.startsWith('#') || (!pending && line === '')) continue
    const continues = line.endsWith('\\')
    const body = continues ? line.slice(0, -1).trim() : line
    if (pending) pending.args = `${pending.args} ${body}`.trim()
    else {
      const [keyword = '', ...rest] = body.split(/\s+/)
      pending = { line: index + 1, keyword: keyword.toUpperCase(), args: rest.join(' ') }
    }
    if (!continues) {
      instructions.push(pending)
      pending = undefined
    }
  }
  if (pending) instructions.push(pending)
  const stages: Stage[] = []
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args)
      if (!m) throw new Error(`Dockerfile:${instruction.line}: FROM ${instruction.args} is not "image [AS name]"`)
      stages.push({ from: m[1]!, name: m[2], instructions: [] })
    } else {
      const stage = stages[stages.length - 1]
      if (!stage) throw new Error(`Dockerfile:${instruction.line}: ${instruction.keyword} before any FROM`)
      stage.instructions.push(instruction)
    }
  }
  return stages
}

/** COPY [--from=stage] src... dest (shell form only: the JSON form is refused by name). */
export function copyArgs(instruction: Instruction): { from: string | undefined; sources: string[]; dest: string } {
  if (instruction.args.startsWith('['))
    throw new Error(`Dockerfile:${instruction.line}: COPY's JSON form is not read by this test`)
  const words = instruction.args.split(/\s+/)
  let from: string | undefined
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!
    const m = /^--from=(\S+)$/.exec(flag)
    if (!m) throw new Error(`Dockerfile:${instruction.line}: COPY flag ${flag} is not read by this test`)
    from = m[1]
  }
  const dest = words.pop()
  if (!dest || words.length === 0)
    throw new Error(`Dockerfile:${instruction.line}: COPY needs a source and a destination`)
  return { from, sources: words, dest }
}

/** ENV key=value ... (values may be double-quoted) or the legacy `ENV key value`. */
export function envPairs(instruction: Instruction): Record<string, string> {
  const pairs: Record<string, string> = {}
  const args = instruction.args
  if (!/^\w+=/.test(args)) {
    const m = /^(\w+)\s+(.*)$/.exec(args)
    if (!m) throw new Error(`Dockerfile:${instruction.line}: ENV ${args} names no value`)
    pairs[m[1]!] = m[2]!
    return pairs
  }
  for (const m of args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const value = m[2]!
    pairs[m[1]!] = value.startsWith('"') ? (JSON.parse(value) as string) : value
  }
  return pairs
}

/** A command in exec form (`["node", "x"]`) as is; shell form as Docker runs it, `/bin/sh -c`. */
export function commandArgv(instruction: Instruction, args = instruction.args): string[] {
  if (!args.startsWith('[')) return ['/bin/sh', '-c', args]
  const parsed: unknown = JSON.parse(args)
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`Dockerfile:${instruction.line}: ${instruction.keyword} ${args} is not a JSON array of strings`)
  return parsed
}

/** HEALTHCHECK [--options] CMD command: the command's argv. */
export function healthcheckArgv(instruction: Instruction): string[] {
  const m = /^(?:--\S+\s+)*CMD\s+(.*)$/.exec(instruction.args)
  if (!m) throw new Error(`Dockerfile:${instruction.line}: HEALTHCHECK ${instruction.args} has no CMD`)
  return commandArgv(instruction, m[1])
}
