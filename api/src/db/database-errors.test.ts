import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-errors.js';

function withCode(code: string, message = 'boom'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a network timeout', withCode('ETIMEDOUT')],
    ['an unknown host during failover', withCode('ENOTFOUND')],
    ['admin_shutdown (a restart)', withCode('57P01', 'terminating connection due to administrator command')],
    ['cannot_connect_now (starting up)', withCode('57P03', 'the database system is starting up')],
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['too many connections', withCode('53300')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a write on a standby after failover', withCode('25006')],
    ["pg's dropped connection", new Error('Connection terminated unexpectedly')],
    ["pg's connect timeout", new Error('timeout exceeded when trying to connect')],
    ["pg's read timeout", new Error('Query read timeout')],
    ['the bounded queue', new DatabaseUnavailableError('too many waiting')],
    ['a wrapped cause', new Error('migration failed', { cause: withCode('ECONNREFUSED') })],
    [
      'an AggregateError (IPv4 and IPv6 both refused)',
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), { code: undefined }),
    ],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['an undefined column', withCode('42703')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
