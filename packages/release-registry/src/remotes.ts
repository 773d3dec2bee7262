import { REMOTES } from '@boatshop/remotes';
import { RegistryError } from './errors';

/** The remotes a team may release (the table of @boatshop/remotes), by folder → Module Federation name. */
export const KNOWN_REMOTES: Readonly<Record<string, string>> = Object.fromEntries(REMOTES.map((remote) => [remote.folder, remote.mfName]));

export function assertKnownRemote(remote: unknown): string {
  if (typeof remote !== 'string' || !Object.hasOwn(KNOWN_REMOTES, remote)) {
    throw new RegistryError(
      'UNKNOWN_REMOTE',
      `unknown remote ${JSON.stringify(remote)}: expected one of ${Object.keys(KNOWN_REMOTES).join(', ')}`,
    );
  }
  return remote;
}

/** Environment names: a short slug, so that it is a safe file name. */
export function assertEnvironment(env: unknown): string {
  if (typeof env !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(env)) {
    throw new RegistryError('INVALID_INPUT', `invalid environment ${JSON.stringify(env)}: lower-case letters, digits and dashes`);
  }
  return env;
}
