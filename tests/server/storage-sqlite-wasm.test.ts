// backend-matrix: sqlite-only — the SQLite wasm driver itself
import { openWasmDb } from '../../server/storage/drivers/sqlite-wasm.ts'
import { runStorageContract } from './storage-contract.ts'

runStorageContract('sqlite-wasm', { db: () => openWasmDb() })
