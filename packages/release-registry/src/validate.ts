import { RegistryError } from './errors';
import { KNOWN_REMOTES } from './remotes';
import type { EnvironmentState, LiveEntry } from './types';

export const RELEASE_ID = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?-[0-9a-f]{12}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const isSmoke = (v: unknown) =>
  isObject(v) &&
  isDate(v.at) &&
  ((v.result === 'passed' && Number.isInteger(v.journeys) && typeof v.shell === 'string') ||
    (v.result === 'skipped' && typeof v.reason === 'string'));
const isEntry = (v: unknown): v is LiveEntry =>
  isObject(v) &&
  typeof v.release === 'string' &&
  RELEASE_ID.test(v.release) &&
  isDate(v.since) &&
  (v.smoke === undefined || isSmoke(v.smoke));

/** Parses an environment file and checks its shape; anything else is CORRUPT, never half-used. */
export function parseEnvironmentState(text: string, where: string): EnvironmentState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RegistryError('CORRUPT', `${where} is not valid JSON`);
  }
  const bad = (why: string) => new RegistryError('CORRUPT', `${where}: ${why}`);
  if (!isObject(value) || value.schema !== 1) throw bad('not a registry environment (schema 1)');
  if (typeof value.environment !== 'string' || !Number.isInteger(value.revision) || !isObject(value.remotes)) throw bad('missing fields');
  for (const [remote, state] of Object.entries(value.remotes)) {
    if (!Object.hasOwn(KNOWN_REMOTES, remote)) throw bad(`unknown remote ${remote}`);
    if (!isObject(state) || !Array.isArray(state.history)) throw bad(`${remote} malformed`);
    if (state.live !== null && !isEntry(state.live)) throw bad(`${remote}.live malformed`);
    if (!state.history.every(isEntry)) throw bad(`${remote}.history malformed`);
    if (state.withdrawn !== undefined && state.withdrawn !== null) {
      const w = state.withdrawn;
      if (!isObject(w) || typeof w.release !== 'string' || typeof w.reason !== 'string' || !isDate(w.at))
        throw bad(`${remote}.withdrawn malformed`);
    }
    if (state.canary !== null) {
      const canary = state.canary;
      if (!isEntry(canary) || typeof (canary as { share?: unknown }).share !== 'number') throw bad(`${remote}.canary malformed`);
      const share = (canary as unknown as { share: number }).share;
      if (!(share > 0 && share < 100)) throw bad(`${remote}.canary.share out of range`);
    }
  }
  return value as unknown as EnvironmentState;
}
