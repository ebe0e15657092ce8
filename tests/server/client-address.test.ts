// backend-matrix: sqlite-only — client address parsing; no database or blob store
/** Reading the client's address through trusted proxies, and FERRY_TRUSTED_PROXIES' validation. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../server/runtime/config.ts'
import { clientAddress } from '../../server/runtime/client-address-node.ts'

test('the first address from the right that is not a trusted proxy is the client', () => {
  const resolve = clientAddress(['10.0.0.0/8', '192.0.2.1', 'fd00::/8'])
  assert.equal(resolve('10.0.0.2', '203.0.113.9'), '203.0.113.9')
  assert.equal(
    resolve('10.0.0.2', '198.51.100.1, 203.0.113.9, 10.9.9.9'),
    '203.0.113.9',
    'hops of trusted proxies are skipped',
  )
  assert.equal(resolve('::ffff:10.0.0.2', '2001:db8::7'), '2001:db8::7', 'an IPv4-mapped peer matches IPv4 ranges')
  assert.equal(resolve('fd00::1', '::ffff:203.0.113.9'), '203.0.113.9')
  assert.equal(
    resolve('203.0.113.50', '198.51.100.1'),
    '203.0.113.50',
    'an untrusted peer is the client, whatever the header says',
  )
  assert.equal(resolve('10.0.0.2', undefined), '10.0.0.2', 'no header: the proxy itself')
  assert.equal(resolve('10.0.0.2', '10.0.0.3, 192.0.2.1'), '10.0.0.3', 'only trusted hops: the leftmost')
  assert.equal(
    resolve('10.0.0.2', '203.0.113.9, not-an-ip'),
    '10.0.0.2',
    'nonsense from a proxy: the last hop it vouched for',
  )
  assert.equal(resolve(undefined, '203.0.113.9'), undefined)
  assert.equal(clientAddress([])('10.0.0.2', '203.0.113.9'), '10.0.0.2', 'no trusted proxies: the header is ignored')
})

test('FERRY_TRUSTED_PROXIES: addresses and CIDR ranges; a bad entry is named', () => {
  assert.deepEqual(loadConfig({ FERRY_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,fd00::/8, ::1' }).trustedProxies, [
    '10.0.0.0/8',
    '127.0.0.1',
    'fd00::/8',
    '::1',
  ])
  assert.deepEqual(loadConfig({}).trustedProxies, [])
  for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.256', '10.0.0.0/8/1', 'fd00::/129', '1.2.3.4/']) {
    assert.throws(
      () => loadConfig({ FERRY_TRUSTED_PROXIES: `127.0.0.1,${bad}` }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes('FERRY_TRUSTED_PROXIES') &&
        error.message.includes(JSON.stringify(bad)),
      bad,
    )
  }
})
