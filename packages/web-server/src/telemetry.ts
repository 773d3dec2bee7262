import FastifyOtelInstrumentation from '@fastify/otel';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import type { FastifyPluginCallback } from 'fastify';

/**
 * The shell's server's traces: a span per page or proxied request, and a child span per call it
 * makes (the API's reads for a page, the proxied /api requests, remote manifests), each call
 * carrying a W3C `traceparent` so the API continues the same trace down to its SQL. A visitor's
 * request that brings a `traceparent` is continued too.
 *
 * On when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set and OTEL_SDK_DISABLED is not
 * true; OTEL_SERVICE_NAME names the service (default boatshop-shell). Outgoing calls are seen
 * through undici's diagnostics channels, so nothing has to load first.
 */
export interface ShellTelemetry {
  readonly fastifyPlugin: FastifyPluginCallback;
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

let running: ShellTelemetry | null = null;

/** The running telemetry, if any: createWebServer registers its plugin first. */
export function shellTelemetry(): ShellTelemetry | null {
  return running;
}

export function startShellTelemetry(env: Env, exporter?: SpanExporter): ShellTelemetry | null {
  if (running) return running;
  const wanted = env.OTEL_SDK_DISABLED !== 'true' && Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (!exporter && !wanted) return null;

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'boatshop-shell' }),
    spanProcessors: [exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  // Static files are most of the requests and tell nothing: their spans are left out.
  const fastify = new FastifyOtelInstrumentation({
    ignorePaths: ({ url }) => /\.(js|css|map|svg|png|jpe?g|webp|avif|woff2?|ico|json)(\?|$)/.test(url) || url.startsWith('/metrics'),
  });
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [fastify, new UndiciInstrumentation()] });
  running = {
    fastifyPlugin: fastify.plugin(),
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      running = null;
    },
  };
  return running;
}
