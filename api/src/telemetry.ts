import { createRequire } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { FastifyPluginCallback } from 'fastify';

/**
 * Traces of each request: the API's span per request (and per hook and handler), with a child
 * span per SQL statement and per outgoing call (the card provider, VIES, the mail relay). A
 * request that carries a W3C `traceparent` (the shell's server sends one when it calls the API)
 * continues the caller's trace, so one trace runs shell → API → database.
 *
 * Off unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, read by the exporter with the other standard OTEL_*
 * variables); OTEL_SDK_DISABLED=true turns it off; OTEL_SERVICE_NAME names the service
 * (default boatshop-api). It must start before `pg` is first loaded: server.ts imports
 * telemetry-start.ts first.
 */
export interface Telemetry {
  /** Registered by the app before its routes: a span per request, continuing the caller's trace. */
  readonly fastifyPlugin: FastifyPluginCallback;
  /** Sends what is buffered and stops: called when the server closes. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

let started: Telemetry | null = null;

/** The running telemetry, if any: app.ts registers its Fastify plugin. */
export function activeTelemetry(): Telemetry | null {
  return started;
}

export function tracingWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing when `env` asks for it (or when a test hands an exporter) and returns it; null
 * when off. Started once per process: a second call returns the first.
 */
export function startTelemetry(env: Env, options: { exporter?: SpanExporter } = {}): Telemetry | null {
  if (started) return started;
  if (!options.exporter && !tracingWanted(env)) return null;

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'boatshop-api' }),
    // A test's exporter sees each span as it ends; the OTLP exporter gets them in batches.
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, W3C trace-context propagation and an AsyncLocalStorage context.
  provider.register();

  const fastify = new FastifyOtelInstrumentation({
    // Probes and metrics are scraped every few seconds: spans for them would drown the requests.
    ignorePaths: ({ url }) => url.startsWith('/api/live') || url.startsWith('/api/ready') || url.startsWith('/api/metrics'),
  });
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [fastify, new PgInstrumentation({ requireParentSpan: true }), new UndiciInstrumentation()],
  });
  // pg is CommonJS: loading it here, through require with the hook in place, patches the one copy
  // every later `import pg from 'pg'` shares.
  createRequire(import.meta.url)('pg');

  started = {
    fastifyPlugin: fastify.plugin(),
    async shutdown() {
      unregister();
      await provider.shutdown();
      // Leaves the process as before: no global provider, context manager or propagator.
      trace.disable();
      context.disable();
      propagation.disable();
      started = null;
    },
  };
  return started;
}
