/**
 * @module Prometheus metrics for the Node server (`FERRY_METRICS_PORT`): prom-client counters
 * fed by the app's `Observer`, the telemetry buffer, and Node's process metrics, served as
 * `GET /metrics` on a listener of their own, so the public port never exposes them.
 */
import { createServer, type Server } from 'node:http'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Observer } from '../core/logger.ts'
import type { TelemetryBufferStats } from '../telemetry/recorder.ts'

export interface Metrics {
  observer: Observer
  registry: Registry
  /** Reports the telemetry buffer at each scrape. */
  watchTelemetry(stats: () => TelemetryBufferStats | null): void
  /** This process dropped the cached answers of `apps` because another process wrote to them. */
  peerInvalidated(apps: string[]): void
}

export function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'ferry_' })
  const requests = new Counter({
    name: 'ferry_http_requests_total',
    help: 'HTTP requests answered, by operation (operationId in the API contract), method and status.',
    labelNames: ['operation', 'method', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'ferry_http_request_duration_seconds',
    help: 'Time from receiving a request to its response, by operation.',
    labelNames: ['operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const checks = new Counter({
    name: 'ferry_update_checks_total',
    help: 'Update checks, by the format asked for and whether the answer cache had the answer (hit, miss, off).',
    labelNames: ['format', 'cache'],
    registers: [registry],
  })
  const uploadBytes = new Counter({
    name: 'ferry_upload_bytes_total',
    help: 'Bytes of the files of stored uploads.',
    registers: [registry],
  })
  const uploads = new Counter({
    name: 'ferry_uploads_total',
    help: 'Uploads stored as versions.',
    registers: [registry],
  })
  const peerInvalidations = new Counter({
    name: 'ferry_answer_cache_peer_invalidations_total',
    help: 'Apps whose cached answers this process dropped because another Ferry process on the same PostgreSQL wrote to them.',
    registers: [registry],
  })
  let telemetry: () => TelemetryBufferStats | null = () => null
  const buffered = (name: string, help: string, read: (stats: TelemetryBufferStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = telemetry()
        if (stats) this.set(read(stats))
      },
    })
  buffered(
    'ferry_telemetry_buffered_devices',
    'Device ids counted and not yet written to the database.',
    (t) => t.devices,
  )
  buffered(
    'ferry_telemetry_buffered_checks',
    'Update checks counted and not yet written to the database.',
    (t) => t.checks,
  )
  buffered(
    'ferry_telemetry_dropped_total',
    'Checks or devices not counted since start because the buffer was full.',
    (t) => t.dropped,
  )
  return {
    registry,
    watchTelemetry(stats) {
      telemetry = stats
    },
    peerInvalidated(apps) {
      peerInvalidations.inc(apps.length)
    },
    observer: {
      request(operation, method, status, seconds) {
        requests.inc({ operation, method, status: String(status) })
        duration.observe({ operation }, seconds)
      },
      updateCheck(format, cache) {
        checks.inc({ format, cache })
      },
      uploaded(bytes) {
        uploads.inc()
        uploadBytes.inc(bytes)
      },
    },
  }
}

/** Serves `GET /metrics` (and nothing else) on `host:port`; resolves once listening. */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n')
      return
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType }).end(text)
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`Collecting metrics failed: ${String(error)}\n`)
      },
    )
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(port, host, () => done())
  })
  return server
}
