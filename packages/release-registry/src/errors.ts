/** A refusal the commands print as is (exit code 1); the registry is left unchanged. */
export class RegistryError extends Error {
  constructor(
    readonly code:
      | 'UNKNOWN_REMOTE'
      | 'UNKNOWN_RELEASE'
      | 'INVALID_INPUT'
      | 'INCOMPATIBLE'
      | 'ROUTE_COLLISION'
      | 'IMMUTABLE'
      | 'NOTHING_TO_ROLL_BACK'
      | 'CORRUPT'
      | 'LOCKED'
      | 'SMOKE_FAILED'
      | 'SMOKE_UNAVAILABLE',
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}
