import type { FastifyInstance } from 'fastify';
import type { FrontEndName } from '@boatshop/remotes';
import { closeOnSignal } from './graceful-shutdown';
import { SERVICE_PORTS, portOf } from './ports';
import { createWebServer, defaultShellOrigins, parseOrigins } from './server';
import { startShellTelemetry } from './telemetry';

/** These servers log warnings and errors only, on stderr: where a supervisor (or the e2e run) looks for trouble. */
const WARNINGS_TO_STDERR = { level: 'warn', stream: process.stderr } as const;

type Env = Record<string, string | undefined>;

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly envName: string,
  ) {
    super(`Port ${port} on ${host} is already in use. Stop whatever runs there or choose another port with ${envName}=<port>.`);
    this.name = 'PortInUseError';
  }
}

/** Listens, turning "address in use" into an error that names the port and how to change it. */
export async function listen(app: FastifyInstance, port: number, host: string, envName: string): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(port, host, envName);
    throw error;
  }
}

/**
 * Starts one front end's production server from the environment (ports per
 * docs/ARCHITECTURE.md; HOST, default localhost; SHELL_ORIGIN for remotes; API_URL for the
 * shell) and stops it gracefully on SIGINT/SIGTERM (SHUTDOWN_GRACE_MS, graceful-shutdown.ts). Exits with a clear message when it cannot start.
 */
export async function serveFrontEnd(name: FrontEndName, distDir: string, env: Env = process.env): Promise<FastifyInstance> {
  const host = env.HOST || 'localhost';
  try {
    const port = portOf(name, env);
    // OTEL_EXPORTER_OTLP_ENDPOINT: the shell's traces (telemetry.ts), continued by the API.
    const telemetry = name === 'shell' ? startShellTelemetry(env) : null;
    const app =
      name === 'shell'
        ? await createWebServer({
            role: 'shell',
            distDir,
            apiUrl: env.API_URL || `http://127.0.0.1:${portOf('api', env)}`,
            env,
            logger: WARNINGS_TO_STDERR,
          })
        : await createWebServer({
            role: 'remote',
            distDir,
            allowedOrigins: env.SHELL_ORIGIN ? parseOrigins(env.SHELL_ORIGIN) : defaultShellOrigins(portOf('shell', env)),
            logger: WARNINGS_TO_STDERR,
          });
    const address = await listen(app, port, host, SERVICE_PORTS[name].env);
    console.log(`${name} serving ${distDir} at ${address}`);
    closeOnSignal(app, name, env, () => telemetry?.shutdown());
    return app;
  } catch (error) {
    console.error(`${name} cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
