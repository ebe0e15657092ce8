// backend-matrix: sqlite-only — the in-memory blob store itself
import { createMemoryBlobs } from '../../server/storage/blobs/blobs-memory.ts'
import { runStorageContract } from './storage-contract.ts'

runStorageContract('blobs-memory', { blobs: async () => ({ blobs: createMemoryBlobs() }) })
