// backend-matrix: sqlite-only — pure version-key arithmetic; no database
/** The version sort key: its byte order is semver precedence, build metadata ignored. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import semver from 'semver'
import { versionKey } from '../../server/storage/releases/version-key.ts'

const sign = (n: number) => Math.sign(n)
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Small numbers (many ties and near ties) or any up to 2^53 - 1. */
const number = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.maxSafeNat())
const alphanumeric = fc
  .string({ unit: fc.constantFrom('a', 'b', 'A', '-', '0', '9'), minLength: 1, maxLength: 3 })
  .filter((id) => !/^[0-9]+$/.test(id))
const identifier = fc.oneof(number.map(String), alphanumeric)
const build = fc.array(fc.string({ unit: fc.constantFrom('a', '0', '-', 'x'), minLength: 1, maxLength: 3 }), {
  maxLength: 2,
})
const version = (numbers: fc.Arbitrary<string>) =>
  fc
    .tuple(number, number, number, fc.array(numbers, { maxLength: 4 }), build)
    .map(
      ([major, minor, patch, pre, meta]) =>
        `${major}.${minor}.${patch}${pre.length ? `-${pre.join('.')}` : ''}${meta.length ? `+${meta.join('.')}` : ''}`,
    )
    .filter((v) => semver.valid(v) !== null)

test('version key: byte order equals semver.compare on arbitrary versions (pre-releases, numbers up to 2^53 - 1)', () => {
  fc.assert(
    fc.property(version(identifier), version(identifier), (a, b) => {
      const [ka, kb] = [versionKey(a), versionKey(b)]
      assert.ok(ka !== null && kb !== null, `${a} and ${b} have keys`)
      assert.match(ka, /^[!-~]+$/, 'printable ASCII')
      assert.equal(byteOrder(ka, kb), sign(semver.compare(a, b)), `${a} vs ${b}: ${ka} vs ${kb}`)
    }),
    { numRuns: 5000 },
  )
})

test('version key: versions sharing a prefix compare as semver does', () => {
  // Mutating one part of the same version gives the near ties random pairs rarely hit.
  const near = version(identifier).chain((a) =>
    fc.tuple(
      fc.constant(a),
      fc
        .constantFrom(
          a.replace(/\+.*$/, ''),
          `${a.replace(/\+.*$/, '')}+build`,
          a.replace(/-.*$/, ''),
          `${a.replace(/[-+].*$/, '')}-0`,
          `${a.replace(/\+.*$/, '')}${a.includes('-') ? '.' : '-'}a`,
          `${a.replace(/\+.*$/, '')}${a.includes('-') ? '.' : '-'}1`,
          // The last pre-release identifier lengthened: a prefix sorts first.
          `${a.replace(/\+.*$/, '')}-`,
          `${a.replace(/\+.*$/, '')}a`,
          `${a.replace(/\+.*$/, '')}0`,
        )
        .filter((b) => semver.valid(b) !== null),
    ),
  )
  fc.assert(
    fc.property(near, ([a, b]) => {
      assert.equal(byteOrder(versionKey(a) ?? '', versionKey(b) ?? ''), sign(semver.compare(a, b)), `${a} vs ${b}`)
    }),
    { numRuns: 3000 },
  )
})

test('version key: numeric pre-release identifiers beyond 2^53 never contradict semver (which compares them as doubles)', () => {
  const huge = fc.bigInt({ min: 2n ** 53n - 10n, max: 10n ** 30n }).map(String)
  fc.assert(
    fc.property(version(fc.oneof(huge, identifier)), version(fc.oneof(huge, identifier)), (a, b) => {
      const order = semver.compare(a, b)
      if (order !== 0) assert.equal(byteOrder(versionKey(a) ?? '', versionKey(b) ?? ''), order, `${a} vs ${b}`)
    }),
    { numRuns: 3000 },
  )
  assert.ok(
    (versionKey('1.0.0-9007199254740993') ?? '') > (versionKey('1.0.0-9007199254740992') ?? ''),
    'exact where doubles tie',
  )
})

test('version key: semver.org precedence examples, build metadata ignored, refused versions have none', () => {
  const ordered = [
    '0.0.0-0',
    '0.0.0',
    '1.0.0-0A',
    '1.0.0-a',
    '1.0.0-a-',
    '1.0.0-a-a',
    '1.0.0-a0',
    '1.0.0-aa',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.9.0',
    '1.10.0',
    '2.0.0-Beta',
    '2.0.0-alpha',
    `${Number.MAX_SAFE_INTEGER}.0.0`,
  ]
  const keys = ordered.map((v) => versionKey(v) ?? '')
  assert.deepEqual([...keys].sort(byteOrder), keys)
  assert.equal(versionKey('1.0.0+build.1'), versionKey('1.0.0'))
  assert.equal(versionKey('1.0.0-rc.1+a'), versionKey('1.0.0-rc.1+b'))
  for (const refused of ['99999999999999999.0.0', 'v1.0.0', '1.0', '1.0.0-01', ''])
    assert.equal(versionKey(refused), null, refused)
})
