import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

// Fastify turns Node's request timeout off (0) unless told otherwise: a client that sends its
// headers, then a body one byte a minute, holds a socket and its memory for ever, and a few
// hundred such clients hold the API. Node's requestTimeout bounds
// the whole request, headers included.
describe('how long the API waits for a request', () => {
  it('gives up on a request that has not fully arrived within 30 seconds', async () => {
    const server = Fastify(serverOptions(loadConfig({ NODE_ENV: 'test' }))).withTypeProvider<TypeBoxTypeProvider>();
    try {
      await server.ready();
      expect(server.server.requestTimeout).toBe(30_000);
    } finally {
      await server.close();
    }
  });
});
