import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry, tracingWanted, type Telemetry } from '../../src/telemetry.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

// Traces: a request carrying the shell's `traceparent` continues that trace in the API, and on
// PostgreSQL each SQL statement is a span inside the request's (shell → API → database).
const onPostgres = Boolean(process.env.DATABASE_URL);
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

let exporter: InMemorySpanExporter;
let telemetry: Telemetry | null;
let app: TestApp;

beforeAll(async () => {
  exporter = new InMemorySpanExporter();
  telemetry = startTelemetry({}, { exporter });
  app = await buildTestApp();
});
afterAll(async () => {
  await app?.close();
  await telemetry?.shutdown();
});

function spansOfTrace(traceId: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
}

describe('tracing', () => {
  it('is off unless an OTLP endpoint is configured, and OTEL_SDK_DISABLED turns it off', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it("continues the caller's trace: the request's span is a child of the traceparent's span", async () => {
    exporter.reset();
    const response = await app.inject({
      method: 'GET',
      url: '/api/products?limit=2',
      headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    });
    expect(response.statusCode).toBe(200);

    const spans = spansOfTrace(CALLER_TRACE);
    const request = spans.find((span) => span.parentSpanContext?.spanId === CALLER_SPAN);
    expect(request?.name).toBe('request');
    expect(request?.attributes['http.request.method']).toBe('GET');
    expect(request?.attributes['http.response.status_code']).toBe(200);

    const statements = spans.filter((span) => (span.attributes['db.system.name'] ?? span.attributes['db.system']) === 'postgresql');
    if (onPostgres) {
      // Each statement hangs below the request's span (through the handler's span).
      expect(statements.length).toBeGreaterThan(0);
      const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
      for (const statement of statements) {
        let parent = statement.parentSpanContext?.spanId;
        while (parent && parent !== request!.spanContext().spanId) parent = byId.get(parent)?.parentSpanContext?.spanId;
        expect(parent).toBe(request!.spanContext().spanId);
      }
    } else {
      // PGlite runs in the process: no driver to trace.
      expect(statements).toEqual([]);
    }
  });

  it('starts a new trace for a request without a traceparent, and leaves probes out', async () => {
    exporter.reset();
    await app.inject({ method: 'GET', url: '/api/live' });
    await app.inject({ method: 'GET', url: '/api/ready' });
    expect(exporter.getFinishedSpans()).toEqual([]);

    await app.inject({ method: 'GET', url: '/api/products?limit=1' });
    const requests = exporter.getFinishedSpans().filter((span) => span.name === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.parentSpanContext).toBeUndefined();
  });
});
