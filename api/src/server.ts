// First: tracing (when configured) must be in place before `pg` is loaded.
import { telemetry } from './telemetry-start.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import app, { serverOptions } from './app.js';
import { developmentWarning, loadConfig, ProductionConfigError, type Config } from './config.js';
import { handleStrayRejection } from './lib/stray-rejections.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // Before the logger exists: one plain message naming every variable to fix, and exit code 1.
  console.error(error instanceof ProductionConfigError ? error.message : `Cannot read the settings: ${(error as Error).message}`);
  process.exit(1);
}
const server = Fastify(serverOptions(config)).withTypeProvider<TypeBoxTypeProvider>();
const notProduction = developmentWarning(config);
// A development start says what it runs on, once, as information: production refuses these defaults.
if (notProduction) server.log.info(notProduction);

// fp: the app's decorators, hooks and error handler belong to the root instance.
await server.register(fp(app), { config });

// On SIGTERM/SIGINT (rolling deploys, scale-down): refuse new connections, answer /api/ready with
// 503, finish in-flight requests, let running jobs end and stop claiming new ones (the jobs
// plugin's preClose), then close the database pool and Redis (onClose). Past SHUTDOWN_GRACE_MS
// the process exits anyway with code 1: a job cut short is retried by another replica.
// Stray rejections are judged first (lib/stray-rejections.ts): a lost database connection is survived.
closeWithGrace({ delay: config.cluster.shutdownGraceMs, skip: ['unhandledRejection'] }, async ({ err, signal }) => {
  if (err) server.log.error({ err }, 'closing the API after an error');
  else server.log.info({ signal }, 'closing the API');
  await server.close();
  await telemetry?.shutdown();
});
// An error that must stop the process goes the way of an uncaught exception: close-with-grace closes, exit 1.
const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
const shutDown = (error: Error) => emit('uncaughtException', error, 'unhandledRejection');
process.on('unhandledRejection', (reason) => handleStrayRejection(reason, server.log, shutDown));

try {
  await server.listen({ host: config.host, port: config.port });
} catch (err) {
  server.log.error({ err }, 'the API could not start');
  process.exit(1);
}
