import { describe, expect, it } from 'vitest';
import { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

const transportOf = (env: NodeJS.ProcessEnv) => (serverOptions(loadConfig(env)).logger as { transport?: { target: string } }).transport;

describe('the API log format', () => {
  it('prints readable lines through pino-pretty in development', () => {
    expect(transportOf({})?.target).toBe('pino-pretty');
    expect(transportOf({ NODE_ENV: 'development' })?.target).toBe('pino-pretty');
  });

  it('keeps JSON lines (no transport) in tests and production', () => {
    expect(transportOf({ NODE_ENV: 'test' })).toBeUndefined();
    const production = loadConfig({ NODE_ENV: 'test' });
    expect(
      (serverOptions({ ...production, nodeEnv: 'production', isProduction: true }).logger as { transport?: unknown }).transport,
    ).toBeUndefined();
  });
});
