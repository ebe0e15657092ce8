// backend-matrix: sqlite-only — pure rollout arithmetic; no database or blob store
/** The ramp arithmetic of `server/updates/rollout.ts`: the share in force at a moment, from stored state only. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { addressNetwork } from '../../server/updates/health-evidence.ts'
import {
  failsPolicy,
  gateColumns,
  rolloutAt,
  stepProblems,
  tallyReports,
  type RolloutColumns,
} from '../../server/updates/rollout.ts'

const T0 = Date.parse('2026-01-01T00:00:00Z')
const MIN = 60_000
const at = (minutes: number) => T0 + minutes * MIN
const iso = (minutes: number) => new Date(at(minutes)).toISOString()
const steps = JSON.stringify([
  { percentage: 5, afterMinutes: 30 },
  { percentage: 20, afterMinutes: 60 },
  { percentage: 100, afterMinutes: 60 },
])
const ramp = (extra: Partial<RolloutColumns> = {}): RolloutColumns => ({
  rollout_percentage: 100,
  ramp_steps: steps,
  ramp_started_at: iso(0),
  ramp_paused_seconds: 0,
  paused_at: null,
  pulled_at: null,
  ramp_gate: null,
  gate_open: 0,
  gate_closed_seconds: 0,
  ...extra,
})
/** The clock-driven part of a position (gates are tested on their own below). */
const position = (row: RolloutColumns, now: number) => {
  const { percentage, step, nextStepAt } = rolloutAt(row, now)
  return { percentage, step, nextStepAt }
}

test('before its first step a ramp offers 0 %, then each step at its time; the last step has no next', () => {
  assert.deepEqual(position(ramp(), at(0)), { percentage: 0, step: null, nextStepAt: at(30) })
  assert.deepEqual(position(ramp(), at(30)), { percentage: 5, step: 0, nextStepAt: at(90) })
  assert.deepEqual(position(ramp(), at(89.99)), { percentage: 5, step: 0, nextStepAt: at(90) })
  assert.deepEqual(position(ramp(), at(90)), { percentage: 20, step: 1, nextStepAt: at(150) })
  assert.deepEqual(position(ramp(), at(10_000)), { percentage: 100, step: 2, nextStepAt: null })
})

test('a pause stops the clock and offers 0 %; paused seconds shift every later step', () => {
  const paused = ramp({ paused_at: iso(40) })
  assert.deepEqual(position(paused, at(500)), { percentage: 0, step: 0, nextStepAt: null })
  // Resumed after 100 minutes: 10 minutes into step 0, which lasts 60; step 1 begins 50 minutes after the resume.
  const resumed = ramp({ ramp_paused_seconds: 100 * 60 })
  assert.deepEqual(position(resumed, at(140)), { percentage: 5, step: 0, nextStepAt: at(190) })
})

test('a hand-set percentage stands until paused or pulled; a malformed ramp reads as none', () => {
  const manual = ramp({ ramp_steps: null, ramp_started_at: null, rollout_percentage: 42 })
  assert.equal(rolloutAt(manual, at(0)).percentage, 42)
  assert.equal(rolloutAt({ ...manual, paused_at: iso(0) }, at(1)).percentage, 0)
  assert.equal(rolloutAt({ ...manual, pulled_at: iso(0) }, at(1)).percentage, 0)
  assert.equal(position(ramp({ ramp_steps: '{"not":"steps"}', rollout_percentage: 42 }), at(0)).percentage, 42)
})

test('the health policy needs its minimum count, enough failing addresses, and a share strictly above the limit', () => {
  const policy = { maxFailureRatio: 0.2, minReports: 10, minAddresses: 3, maxReportsPerAddress: 5 }
  const failedAt = (n: number) => Array.from({ length: n }, () => ({ installed: 0, failed: 1 }))
  const installedAt = (n: number) => Array.from({ length: n }, () => ({ installed: 1, failed: 0 }))
  assert.equal(failsPolicy(tallyReports([...failedAt(9)], policy), policy), false, 'below the minimum count')
  assert.equal(
    failsPolicy(tallyReports([...failedAt(2), ...installedAt(8)], policy), policy),
    false,
    '20 % is not above 20 %',
  )
  assert.equal(failsPolicy(tallyReports([...failedAt(3), ...installedAt(7)], policy), policy), true)
  // One address counts for at most 5 reports of each outcome, and failures need 3 addresses.
  assert.deepEqual(tallyReports([{ installed: 200, failed: 0 }, ...failedAt(30)], policy), {
    reports: 35,
    failed: 30,
    failedAddresses: 30,
  })
  const oneMachine = tallyReports([{ installed: 0, failed: 20 }], policy)
  assert.deepEqual(oneMachine, { reports: 5, failed: 5, failedAddresses: 1 })
  assert.equal(
    failsPolicy(
      tallyReports(
        [
          { installed: 0, failed: 20 },
          { installed: 0, failed: 20 },
        ],
        policy,
      ),
      policy,
    ),
    false,
    'two addresses are not three',
  )
  assert.equal(
    failsPolicy(
      tallyReports(
        [
          { installed: 0, failed: 20 },
          { installed: 0, failed: 20 },
          { installed: 5, failed: 20 },
        ],
        policy,
      ),
      policy,
    ),
    true,
  )
})

test('addresses are read as networks: IPv4 as is, IPv6 by its /64', () => {
  assert.equal(addressNetwork('203.0.113.7'), '203.0.113.7')
  assert.equal(addressNetwork('::ffff:203.0.113.7'), '203.0.113.7')
  assert.equal(addressNetwork('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
  assert.equal(addressNetwork('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64')
  assert.equal(addressNetwork('2001:db8::1'), '2001:db8:0:0::/64')
  assert.equal(addressNetwork(undefined), 'unknown')
})

test('a ramp whose percentages go down is refused, naming the step', () => {
  assert.deepEqual(
    stepProblems([
      { percentage: 10, afterMinutes: 0 },
      { percentage: 5, afterMinutes: 1 },
      { percentage: 50, afterMinutes: 1 },
    ]),
    [{ pointer: '/ramp/steps/1/percentage', message: "must not be below the previous step's 10" }],
  )
})

test('a gated ramp holds before the first step it had not begun when its gate closed; opening it starts that step now', () => {
  const gate = JSON.stringify({ minInstalls: 10, maxFailureRatio: 0.1, deadlineMinutes: 60 })
  const closed = ramp({ ramp_gate: gate })
  // Step 0 needs no evidence; step 1 (due at +90) waits, and the deadline is an hour after that.
  assert.deepEqual(rolloutAt(closed, at(30)), {
    percentage: 5,
    step: 0,
    nextStepAt: at(90),
    hold: null,
    changesAt: at(90),
  })
  assert.deepEqual(rolloutAt(closed, at(100)), {
    percentage: 5,
    step: 0,
    nextStepAt: null,
    hold: { step: 1, since: at(90), deadline: at(150), expired: false },
    changesAt: at(150),
  })
  assert.equal(rolloutAt(closed, at(150)).percentage, 0, 'past the deadline: offered to no new device')
  // Opened at +120: the held half hour no longer counts, step 1 begins at +120 and lasts its hour.
  const opened = { ...closed, ...gateColumns(closed, true, at(120)) }
  assert.deepEqual(position(opened, at(120)), { percentage: 20, step: 1, nextStepAt: at(180) })
  // Closed again at +130: step 1 stands, step 2 (due at +180) holds.
  const reclosed = { ...opened, ...gateColumns(opened, false, at(130)) }
  assert.deepEqual(rolloutAt(reclosed, at(200)).hold, { step: 2, since: at(180), deadline: at(240), expired: false })
  assert.equal(rolloutAt(reclosed, at(200)).percentage, 20)
  // A pause during a hold stops the clock too: resuming shifts the hold, not the step in force.
  const paused = { ...closed, paused_at: iso(100) }
  assert.equal(rolloutAt(paused, at(500)).percentage, 0)
  assert.deepEqual(rolloutAt({ ...closed, ramp_paused_seconds: 400 * 60 }, at(500)).hold?.since, at(490))
})
