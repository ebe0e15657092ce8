#!/usr/bin/env node
// The package's `ferry` bin: registers tsx so Node can load the TypeScript entry, then runs it.
import { register } from 'tsx/esm/api'

register()
await import('./ferry.ts')
