import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebServer } from './server';
import { startShellTelemetry, type ShellTelemetry } from './telemetry';

// One trace from the visitor's request through the shell's server to the API: every call the
// shell makes to the API carries a traceparent naming the shell's own span for that call.
let dir: string;
let api: FastifyInstance;
let shell: FastifyInstance;
let telemetry: ShellTelemetry | null;
const exporter = new InMemorySpanExporter();
const received: { url: string; traceparent: string | undefined }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shell-telemetry-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Boat shop</title><div id="root"></div>');
  api = Fastify();
  api.get('/api/*', async (request, reply) => {
    received.push({ url: request.url, traceparent: request.headers.traceparent as string | undefined });
    return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such boat' } });
  });
  const apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  telemetry = startShellTelemetry({}, exporter);
  shell = await createWebServer({ role: 'shell', distDir: dir, apiUrl, env: {} });
});
afterAll(async () => {
  await shell?.close();
  await api?.close();
  await telemetry?.shutdown();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  exporter.reset();
  received.length = 0;
});

/** The span that `traceparent` names as its parent, among the finished ones. */
function spanNamedBy(traceparent: string | undefined) {
  const [, traceId, spanId] = (traceparent ?? '').split('-');
  return exporter.getFinishedSpans().find((span) => span.spanContext().traceId === traceId && span.spanContext().spanId === spanId);
}

describe("the shell's traces", () => {
  it('continue into the API through the /api proxy: the forwarded request names the call span', async () => {
    const response = await shell.inject({ url: '/api/products/no-such-boat' });
    expect(response.statusCode).toBe(404);
    expect(received).toHaveLength(1);
    const call = spanNamedBy(received[0]!.traceparent);
    expect(call, 'the traceparent names a span the shell ended').toBeDefined();
    // The call is a child of the shell's span for the visitor's request.
    const request = exporter.getFinishedSpans().find((span) => span.name === 'request');
    expect(request).toBeDefined();
    expect(call!.spanContext().traceId).toBe(request!.spanContext().traceId);
  });

  it("continue the visitor's own trace, and the server's own reads of the API belong to it", async () => {
    const visitorTrace = '0af7651916cd43dd8448eb211c80319c';
    // The sitemap index asks the API how many products there are.
    await shell.inject({ url: '/sitemap.xml', headers: { traceparent: `00-${visitorTrace}-b7ad6b7169203331-01` } });
    const read = received.find((call) => call.url.startsWith('/api/'));
    expect(read, 'the sitemap read the API').toBeDefined();
    expect(read!.traceparent?.split('-')[1]).toBe(visitorTrace);
    expect(spanNamedBy(read!.traceparent)).toBeDefined();
  });

  it('leave static files out', async () => {
    await shell.inject({ url: '/main.js' });
    expect(exporter.getFinishedSpans().filter((span) => span.name === 'request')).toEqual([]);
  });
});
