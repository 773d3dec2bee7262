import fp from 'fastify-plugin';
import { badRequest } from '../../lib/errors.js';

/**
 * PostgreSQL text (and jsonb) cannot hold U+0000: a NUL byte in any string of the path, the query
 * or a JSON body would reach the database as an error, a 500. No field of the shop has a use for
 * it, so it is refused up front with a 400, for every route, present and future. Raw bodies
 * (the payment webhook's signed Buffer) are the route's own business.
 */
export function containsNul(value: unknown): boolean {
  // Iterative: a JSON body may be nested deeper than the call stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

export default fp(
  async (fastify) => {
    fastify.addHook('preValidation', async (request) => {
      if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
        throw badRequest('Invalid request: text must not contain NUL (\\u0000) characters');
      }
    });
  },
  { name: 'refuse-nul' },
);
