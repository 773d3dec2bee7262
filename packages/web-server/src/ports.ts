import ports from '../ports.json' with { type: 'json' };

// One table for every service's port (docs/ARCHITECTURE.md), read by the servers, the rspack
// dev servers and scripts/start.mjs alike, so an override by env means the same everywhere.
export type ServiceName = keyof typeof ports;

export const SERVICE_PORTS: Readonly<Record<ServiceName, { env: string; port: number }>> = ports;

type Env = Record<string, string | undefined>;

export function portOf(service: ServiceName, env: Env = process.env): number {
  const { env: name, port } = SERVICE_PORTS[service];
  const raw = env[name];
  if (raw === undefined || raw === '') return port;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65_535) {
    throw new Error(`${name}=${raw} is not a port number`);
  }
  return parsed;
}
