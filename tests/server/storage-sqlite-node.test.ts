// backend-matrix: sqlite-only — the SQLite driver itself
import { openNodeDb } from '../../server/storage/drivers/sqlite-node.ts'
import { runStorageContract } from './storage-contract.ts'

runStorageContract('sqlite-node', { db: () => openNodeDb(':memory:') })
