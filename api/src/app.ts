import type { ErrorBody } from '@boatshop/contract';
import { AjvCompiler } from '@fastify/ajv-compiler';
import AutoLoad from '@fastify/autoload';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import path from 'node:path';
import type { Config } from './config.js';
import { isDatabaseUnavailable } from './db/database-errors.js';
import { ApiError, codeForStatus } from './lib/errors.js';
import { redactUrl } from './lib/redact-url.js';
import { registerInvoiceSeller } from './features/invoices/seller.js';
import { activeTelemetry } from './telemetry.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface AppOptions {
  config: Config;
}

/**
 * The router refuses a malformed percent-encoding or an over-long path parameter before any route
 * or error handler runs; without this its answer has a shape of its own and echoes the path back.
 */
function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(414).send({ error: { code: 'URI_TOO_LONG', message: 'A part of this address is too long' } });
  } else if (error.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send({ error: { code: 'BAD_URL', message: 'The address of this request is not valid' } });
  } else {
    const statusCode = error.statusCode ?? 400;
    reply.code(statusCode).send({ error: { code: codeForStatus(statusCode), message: 'Bad request' } });
  }
}

interface RouteSchemaInfo {
  schema: unknown;
  httpPart?: string;
}
type RouteValidatorCompiler = (route: RouteSchemaInfo) => unknown;
type PoolFactory = (externalSchemas: unknown, options: { customOptions?: object }) => RouteValidatorCompiler;

/**
 * Fastify's validator, but type coercion only where the wire has nothing but strings: the
 * querystring, path parameters and headers. JSON bodies carry real types, so `priceCents: true`,
 * `"100"` or `[100]` and `descriptionHtml: null` are refused with 400 instead of being stored as 1,
 * 100 or "". Both Ajv instances are built by Fastify's own compiler, so its defaults (formats from
 * ajv-formats for TypeBox's `format: 'uuid'` etc., removeAdditional, useDefaults) stay as they were.
 */
function bodyStrictValidatorFactory(): PoolFactory {
  const pool = AjvCompiler() as unknown as PoolFactory;
  return (externalSchemas, options) => {
    const withCoercion = (coerceTypes: false | 'array'): RouteValidatorCompiler =>
      pool(externalSchemas, { ...options, customOptions: { ...options?.customOptions, coerceTypes } });
    const strict = withCoercion(false);
    const coercing = withCoercion('array');
    return (route) => (route.httpPart === 'body' ? strict(route) : refuseNonFinite(coercing(route) as CompiledValidator));
  };
}

type CompiledValidator = ((data: unknown) => unknown) & { errors?: unknown };

/** Where in `data` a number is not finite (Infinity, -Infinity), as a JSON pointer; null when none. */
function nonFinitePath(data: unknown, path = ''): string | null {
  if (typeof data === 'number') return Number.isFinite(data) ? null : path;
  if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const found = nonFinitePath(value, `${path}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Ajv's coercion turns "Infinity" and "1e400" into Infinity, which then passes `integer` and
 * `maximum`: a query like `?limit=Infinity` reached the database. Any non-finite number a
 * coerced part (query, params, headers) holds after validation is refused with 400.
 */
function refuseNonFinite(validate: CompiledValidator): CompiledValidator {
  const wrapped = (data: unknown) => {
    const result = validate(data);
    if (result !== true) {
      wrapped.errors = validate.errors;
      return result;
    }
    const path = nonFinitePath(data);
    if (path === null) return true;
    const error = Object.assign(new Error(`${path.slice(1).replaceAll('/', '.')} must be a finite number`), {
      statusCode: 400,
      validation: [{ instancePath: path, keyword: 'type', params: {}, message: 'must be a finite number' }],
    });
    return { error };
  };
  wrapped.errors = undefined as unknown;
  return wrapped;
}

/** Options for the Fastify instance the app is registered on (server.ts and the tests). */
export function serverOptions(config: Config): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      // Readable lines for a developer; JSON, one object a line, everywhere else (production, tests).
      ...(config.nodeEnv === 'development'
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
        : {}),
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrf-token"]'],
      serializers: {
        // Fastify's own request serializer, but a sign-in callback's code and state, or a link's
        // token, never reach the logs with the URL.
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    frameworkErrors: frameworkError as FastifyServerOptions['frameworkErrors'],
    // Fastify turns Node's request timeout off: without one, a client trickling its body a byte a
    // minute holds a socket for ever. 30 s is far above any honest request (bodies are ≤ 1 MiB).
    requestTimeout: 30_000,
    // PGlite's first start and the migrations can take a while on a busy machine.
    pluginTimeout: 60_000,
    // Behind the shell's proxy or a load balancer, client IPs (rate limits, logs) come from
    // X-Forwarded-For, but only when the connection comes from a proxy named in TRUST_PROXY:
    // anyone else could write any address there and dodge the per-IP limits.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    schemaController: {
      compilersFactory: {
        buildValidator: bodyStrictValidatorFactory() as unknown as NonNullable<
          NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
        >['buildValidator'],
      },
    },
    ajv: {
      customOptions: {
        // Report every problem at once so a form can list them all.
        allErrors: true,
      },
    },
  };
}

function validationBody(error: FastifyError): ErrorBody {
  const details = (error.validation ?? []).map((issue) => {
    const where = `${error.validationContext ?? 'request'}${issue.instancePath.replaceAll('/', '.')}`;
    const params = issue.params as { missingProperty?: string; allowedValues?: unknown[] };
    if (params.missingProperty) return `${where}.${params.missingProperty} is required`;
    if (issue.keyword === 'enum' && params.allowedValues) {
      return `${where} must be one of: ${params.allowedValues.join(', ')}`;
    }
    return `${where} ${issue.message ?? 'is invalid'}`;
  });
  return {
    error: {
      code: 'VALIDATION',
      message: details.length === 1 ? `Invalid request: ${details[0]}` : 'Invalid request',
      details,
    },
  };
}

/**
 * The whole API as one plugin: ecosystem plugins, then the app's own, then the routes.
 * Other features just add files to those folders.
 */
export default async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  fastify.decorate('config', opts.config);
  // Tracing, when started (telemetry.ts): before every route, so each request gets its span.
  const telemetry = activeTelemetry();
  if (telemetry) await fastify.register(telemetry.fastifyPlugin);
  // books: the seller the money paths' documents name.
  registerInvoiceSeller(opts.config);

  // Before the autoloaded plugins: each encapsulated context copies the handlers when it is created.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (error.validation) {
      return reply.code(400).send(validationBody(error));
    }
    // A restart, failover or dead network is not a bug: say so, and when to come back.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error, method: request.method, url: redactUrl(request.url) }, 'database unavailable: answered 503');
      return reply
        .code(503)
        .header('retry-after', String(opts.config.database.retryAfterSeconds))
        .send({
          error: {
            code: 'DATABASE_UNAVAILABLE',
            message: 'The shop cannot reach its database right now. Please try again in a few seconds.',
          },
        });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode < 500) {
      return reply.code(statusCode).send({ error: { code: codeForStatus(statusCode), message: error.message } });
    }
    request.log.error(
      { err: error, method: request.method, url: redactUrl(request.url), userId: request.user?.id ?? null },
      'request failed',
    );
    return reply.code(500).send({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  });

  fastify.setNotFoundHandler((request, reply) => {
    // The path only, shortened: a query string may hold a token, and a 100 kB path need not come back.
    const path = request.url.split('?')[0]!;
    const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
    reply.code(404).send({ error: { code: 'NOT_FOUND', message: `Route ${request.method} ${shown} not found` } });
  });

  await fastify.register(AutoLoad, {
    dir: path.join(import.meta.dirname, 'plugins', 'external'),
    options: opts,
  });
  await fastify.register(AutoLoad, {
    dir: path.join(import.meta.dirname, 'plugins', 'app'),
    options: opts,
  });
  await fastify.register(AutoLoad, {
    dir: path.join(import.meta.dirname, 'routes'),
    // routes/api/admin/autohooks.ts guards every admin route, and its sub-folders too.
    autoHooks: true,
    cascadeHooks: true,
    options: opts,
  });
}
