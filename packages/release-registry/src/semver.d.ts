// The few functions of semver (installed with npm, no @types/semver in the tree) the registry uses.
declare module 'semver' {
  export function valid(version: string): string | null;
  export function validRange(range: string): string | null;
  export function satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  const semver: { valid: typeof valid; validRange: typeof validRange; satisfies: typeof satisfies };
  export default semver;
}
