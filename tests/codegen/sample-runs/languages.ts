/**
 * How each language's samples run here: written to files, compiled in one batch where the
 * language compiles (one Go program, one javac, one mcs, one cargo build), then one process per
 * sample or per batch. Only the standard library, plus Python's requests, PHP's Guzzle and Rust's
 * reqwest and serde_json as Debian packages them.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface Sample {
  /** A name that is an identifier in every language: the operationId, `_contract<n>` for `x-codeSamples`. */
  name: string
  code: string
}

export interface Command {
  command: string
  args: string[]
}

export interface Runner {
  /** The tab's label in SAMPLE_TARGETS. */
  label: string
  /** Writes (and compiles) the samples under `dir`; throws naming the samples that failed. */
  prepare(samples: Sample[], dir: string): Promise<void>
  /** One process per sample. */
  command?(sample: Sample, dir: string): Command
  /**
   * One process runs the samples named after it in turn (a JVM or Mono starts in seconds, not
   * milliseconds), each followed by a line `@@sample-end <name> ok` or `… failed <why>`.
   */
  batch?(dir: string): Command
}

export const END_MARK = '@@sample-end'

/** A compiler's run; fails with its output, naming the samples whose files it mentions. */
function compile(command: string, args: string[], cwd: string, samples: Sample[], env = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve()
      const output = `${stdout}${stderr}`
      const named = samples.filter((s) => output.includes(s.name)).map((s) => s.name)
      reject(new Error(`${command} failed for ${named.join(', ') || 'the samples'}: ${error.message}\n${output}`))
    })
  })
}

/** Splits leading directives (`import …;`, `using …;`) from the statements a wrapper puts in a method. */
function hoist(code: string, directive: RegExp): { head: string; body: string } {
  const lines = code.split('\n')
  const at = lines.findIndex((line) => line.trim() !== '' && !directive.test(line))
  return { head: lines.slice(0, at).join('\n'), body: lines.slice(at).join('\n') }
}

function writeEach(samples: Sample[], dir: string, ext: string, wrap = (s: Sample) => s.code): void {
  mkdirSync(dir, { recursive: true })
  for (const s of samples) writeFileSync(join(dir, `${s.name}.${ext}`), wrap(s))
}

/** A language whose files run as they are. */
function interpreted(label: string, ext: string, command: string, args: string[] = []): Runner {
  return {
    label,
    prepare: async (samples, dir) => writeEach(samples, dir, ext),
    command: (sample, dir) => ({ command, args: [...args, join(dir, `${sample.name}.${ext}`)] }),
  }
}

/** Every Go sample in one program: each `main` renamed after its sample, and a main that picks one. */
const go: Runner = {
  label: 'Go',
  async prepare(samples, dir) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'go.mod'), 'module ferry.test/samples\n\ngo 1.19\n')
    for (const s of samples)
      writeFileSync(join(dir, `${s.name}.go`), s.code.replace(/^func main\(\)/m, `func ${s.name}()`))
    const cases = samples.map((s) => `\tcase ${JSON.stringify(s.name)}:\n\t\t${s.name}()`).join('\n')
    writeFileSync(
      join(dir, 'zz_dispatch.go'),
      [
        'package main',
        '',
        'import (\n\t"fmt"\n\t"os"\n)',
        '',
        'func main() {',
        '\tfor _, name := range os.Args[1:] {',
        `\t\tfmt.Printf("\\n${END_MARK} %s %s\\n", name, run(name))`,
        '\t}',
        '}',
        '',
        'func run(name string) (result string) {',
        '\tdefer func() {',
        '\t\tif r := recover(); r != nil {',
        '\t\t\tresult = fmt.Sprint("failed ", r)',
        '\t\t}',
        '\t}()',
        '\tswitch name {',
        cases,
        '\tdefault:',
        '\t\treturn "failed: no such sample"',
        '\t}',
        '\treturn "ok"',
        '}',
        '',
      ].join('\n'),
    )
    const env = { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' }
    await compile('go', ['build', '-o', 'samples', '.'], dir, samples, env)
  },
  batch: (dir) => ({ command: join(dir, 'samples'), args: [] }),
}

/** One javac over every sample, each the body of a class's main (as jshell would take it). */
const java: Runner = {
  label: 'Java',
  async prepare(samples, dir) {
    writeEach(samples, dir, 'java', ({ code, name }) => {
      const { head, body } = hoist(code, /^import [\w.]+;$/)
      return `${head}\n\nclass ${name} {\n  public static void main(String[] args) throws Exception {\n${body}\n  }\n}\n`
    })
    writeFileSync(
      join(dir, 'RunSamples.java'),
      [
        'class RunSamples {',
        '  public static void main(String[] names) {',
        '    for (String name : names) {',
        '      String result = "ok";',
        '      try {',
        '        Class.forName(name).getMethod("main", String[].class).invoke(null, (Object) new String[0]);',
        '      } catch (java.lang.reflect.InvocationTargetException e) {',
        '        result = "failed " + e.getCause();',
        '      } catch (Exception e) {',
        '        result = "failed " + e;',
        '      }',
        `      System.out.println("\\n${END_MARK} " + name + " " + result.replace('\\n', ' '));`,
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
    const files = ['RunSamples.java', ...samples.map((s) => `${s.name}.java`)]
    await compile('javac', ['-encoding', 'UTF-8', '-d', 'classes', ...files], dir, samples)
  },
  batch: (dir) => ({ command: 'java', args: ['-cp', join(dir, 'classes'), 'RunSamples'] }),
}

/**
 * One mcs over every sample. mcs knows C# 7, not top-level statements, so each sample becomes an
 * async method with the usings .NET 6+ adds implicitly, and a Main picks one by name.
 */
const csharp: Runner = {
  label: 'C#',
  async prepare(samples, dir) {
    writeEach(samples, dir, 'cs', ({ code, name }) => {
      const { head, body } = hoist(code, /^using [\w.]+;$/)
      return `using System;\nusing System.IO;\nusing System.Net.Http;\nusing System.Threading.Tasks;\n${head}\n\nstatic class ${name}\n{\n  public static async Task Run()\n  {\n${body}\n  }\n}\n`
    })
    const cases = samples.map(
      (s) => `          case ${JSON.stringify(s.name)}: ${s.name}.Run().GetAwaiter().GetResult(); break;`,
    )
    writeFileSync(
      join(dir, 'Dispatch.cs'),
      [
        'static class Dispatch',
        '{',
        '  static void Main(string[] names)',
        '  {',
        '    foreach (var name in names)',
        '    {',
        '      var result = "ok";',
        '      try',
        '      {',
        '        switch (name)',
        '        {',
        ...cases,
        '          default: throw new System.ArgumentException("no such sample");',
        '        }',
        '      }',
        '      catch (System.Exception e)',
        '      {',
        '        result = "failed " + e.GetType().Name + ": " + e.Message.Replace("\\n", " ");',
        '      }',
        `      System.Console.WriteLine("\\n${END_MARK} " + name + " " + result);`,
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
    await compile(
      'mcs',
      ['-r:System.Net.Http.dll', '-out:samples.exe', 'Dispatch.cs', ...samples.map((s) => `${s.name}.cs`)],
      dir,
      samples,
    )
  },
  batch: (dir) => ({ command: 'mono', args: [join(dir, 'samples.exe')] }),
}

/**
 * The crates named by the samples' `// Cargo.toml: [dependencies]` comments, features merged: the
 * build uses what a reader would put in their Cargo.toml, so a version Debian does not ship fails it.
 */
function cargoDependencies(samples: Sample[]): string[] {
  const crates = new Map<string, { version: string; features: Set<string>; sample: string }>()
  for (const { name, code } of samples) {
    const lines = code.split('\n')
    const at = lines.indexOf('// Cargo.toml: [dependencies]')
    if (at < 0) continue
    for (const line of lines.slice(at + 1)) {
      const [, crate, spec] = /^\/\/ ([\w-]+) = (.+)$/.exec(line) ?? []
      if (crate === undefined || spec === undefined) break
      const version = /^"([^"]+)"$/.exec(spec)?.[1] ?? /\bversion = "([^"]+)"/.exec(spec)?.[1]
      if (version === undefined) throw new Error(`${name}: no version in its Cargo.toml comment's line ${line}`)
      const features = [...(/\bfeatures = \[([^\]]*)\]/.exec(spec)?.[1]?.matchAll(/"([^"]+)"/g) ?? [])].map(
        (f) => f[1] ?? '',
      )
      const known = crates.get(crate)
      if (known && known.version !== version)
        throw new Error(`${known.sample} names ${crate} ${known.version}, ${name} names ${version}`)
      const entry = known ?? { version, features: new Set<string>(), sample: name }
      for (const feature of features) entry.features.add(feature)
      crates.set(crate, entry)
    }
  }
  return [...crates].map(
    ([crate, { version, features }]) =>
      `${crate} = { version = ${JSON.stringify(version)}, features = ${JSON.stringify([...features].sort())} }`,
  )
}

/**
 * Every Rust sample a module of one binary crate (its `main` made public) and a main that picks
 * them by name, built offline by Debian's cargo and rustc from Debian's crate sources. The target
 * directory is kept in ~/.cache/ferry/, so only a fresh machine builds reqwest's dependency tree.
 */
const rust: Runner = {
  label: 'Rust',
  async prepare(samples, dir) {
    mkdirSync(join(dir, 'src'), { recursive: true })
    mkdirSync(join(dir, 'cargo-home'), { recursive: true })
    // Debian's crate sources as the crates.io registry (cargo's "directory source"): nothing is fetched.
    writeFileSync(
      join(dir, 'cargo-home', 'config.toml'),
      '[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n',
    )
    writeFileSync(
      join(dir, 'Cargo.toml'),
      [
        '[package]',
        'name = "ferry-samples"',
        'version = "0.0.0"',
        'edition = "2021"',
        '',
        '[dependencies]',
        ...cargoDependencies(samples),
        '',
        // No debug info: smaller and quicker to link, and nothing here runs under a debugger.
        '[profile.dev]',
        'debug = 0',
        '',
      ].join('\n'),
    )
    for (const s of samples)
      writeFileSync(join(dir, 'src', `${s.name}.rs`), s.code.replace(/^fn main\(\)/m, 'pub fn main()'))
    writeFileSync(
      join(dir, 'src', 'main.rs'),
      [
        '#![allow(non_snake_case)]',
        ...samples.map((s) => `mod ${s.name};`),
        '',
        "/// A sample's main returns () or a Result; either way, the word after its name in the end mark.",
        'trait Outcome {',
        '    fn result(self) -> String;',
        '}',
        'impl Outcome for () {',
        '    fn result(self) -> String {',
        '        "ok".to_string()',
        '    }',
        '}',
        'impl<E: std::fmt::Display> Outcome for Result<(), E> {',
        '    fn result(self) -> String {',
        '        match self {',
        '            Ok(()) => "ok".to_string(),',
        '            Err(e) => format!("failed {}", e),',
        '        }',
        '    }',
        '}',
        '',
        'fn run<T: Outcome>(main: fn() -> T) -> String {',
        '    match std::panic::catch_unwind(main) {',
        '        Ok(outcome) => outcome.result(),',
        '        Err(_) => "failed: it panicked".to_string(),',
        '    }',
        '}',
        '',
        'fn main() {',
        '    for name in std::env::args().skip(1) {',
        '        let result = match name.as_str() {',
        ...samples.map((s) => `            ${JSON.stringify(s.name)} => run(${s.name}::main),`),
        '            _ => "failed: no such sample".to_string(),',
        '        };',
        `        println!("\\n${END_MARK} {} {}", name, result.replace('\\n', " "));`,
        '    }',
        '}',
        '',
      ].join('\n'),
    )
    const target = join(homedir(), '.cache', 'ferry', 'rust-samples-target')
    // Debian's cargo and rustc by path: a rustup toolchain earlier in PATH would rebuild the cache for its version.
    const env = {
      ...process.env,
      CARGO_HOME: join(dir, 'cargo-home'),
      CARGO_TARGET_DIR: target,
      RUSTC: '/usr/bin/rustc',
      CARGO_TERM_COLOR: 'never',
    }
    await compile('/usr/bin/cargo', ['build', '--offline'], dir, samples, env)
    // Copied at once: another run's build, which waits for cargo's lock on the target directory, replaces it.
    copyFileSync(join(target, 'debug', 'ferry-samples'), join(dir, 'samples'))
  },
  batch: (dir) => ({ command: join(dir, 'samples'), args: [] }),
}

export const RUNNERS: Runner[] = [
  interpreted('curl', 'sh', 'bash', ['-e']),
  interpreted('JavaScript', 'mjs', process.execPath),
  interpreted('Python', 'py', 'python3'),
  go,
  java,
  csharp,
  interpreted('Ruby', 'rb', 'ruby'),
  // Guzzle, which the samples load through vendor/autoload.php, is Debian's php-guzzlehttp-guzzle.
  interpreted('PHP', 'php', 'php'),
  // reqwest and serde_json, which the samples' Cargo.toml comments name, are Debian's librust-*-dev crate sources.
  rust,
]
