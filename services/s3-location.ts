/** Where the S3 tests' blobs go when FERRY_TEST_S3_* name a bucket (no SDK import: every test file loads this). */
import { randomUUID } from 'node:crypto'
import type { S3Location } from '../server/runtime/config.ts'

/**
 * A location in the bucket FERRY_TEST_S3_* name, under a fresh `ferry-test-<random>/` prefix
 * (itself under FERRY_TEST_S3_PREFIX when set, so a runner that owns that prefix can drop all of it).
 */
export function environmentLocation(env: Record<string, string | undefined> = process.env): S3Location {
  const endpoint = env.FERRY_TEST_S3_ENDPOINT || undefined
  const credentials =
    env.FERRY_TEST_S3_ACCESS_KEY_ID && env.FERRY_TEST_S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.FERRY_TEST_S3_ACCESS_KEY_ID, secretAccessKey: env.FERRY_TEST_S3_SECRET_ACCESS_KEY }
      : undefined
  return {
    kind: 's3',
    bucket: env.FERRY_TEST_S3_BUCKET ?? '',
    prefix: `${env.FERRY_TEST_S3_PREFIX ?? ''}ferry-test-${randomUUID().slice(0, 8)}/`,
    endpoint,
    region: env.FERRY_TEST_S3_REGION || 'us-east-1',
    credentials,
    forcePathStyle: env.FERRY_TEST_S3_FORCE_PATH_STYLE
      ? env.FERRY_TEST_S3_FORCE_PATH_STYLE === 'on'
      : endpoint !== undefined,
    presignSeconds: 900,
  }
}

/** The variables `environmentLocation` reads, naming `location` (for child processes). */
export function locationEnvironment(location: S3Location): Record<string, string> {
  return {
    FERRY_TEST_S3_BUCKET: location.bucket,
    FERRY_TEST_S3_PREFIX: location.prefix,
    FERRY_TEST_S3_FORCE_PATH_STYLE: location.forcePathStyle ? 'on' : 'off',
    ...(location.endpoint ? { FERRY_TEST_S3_ENDPOINT: location.endpoint } : {}),
    ...(location.region ? { FERRY_TEST_S3_REGION: location.region } : {}),
    ...(location.credentials
      ? {
          FERRY_TEST_S3_ACCESS_KEY_ID: location.credentials.accessKeyId,
          FERRY_TEST_S3_SECRET_ACCESS_KEY: location.credentials.secretAccessKey,
        }
      : {}),
  }
}
