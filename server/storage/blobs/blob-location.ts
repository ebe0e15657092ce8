/** @module Where artifact bytes are kept: the data folder, or an S3-compatible bucket. */

export interface S3Location {
  kind: 's3'
  bucket: string
  /** Empty, or ends with `/`; every blob key is stored under it. */
  prefix: string
  /** `undefined`: AWS S3 itself (the SDK's endpoint for the region). */
  endpoint: string | undefined
  /** `undefined`: the AWS SDK's default chain (AWS_REGION, profile), or us-east-1 with an endpoint. */
  region: string | undefined
  /** `undefined`: the AWS SDK's default credential chain (AWS_* variables, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  forcePathStyle: boolean
  /** Lifetime of presigned download URLs. */
  presignSeconds: number
}

export type BlobLocation = { kind: 'fs' } | S3Location
