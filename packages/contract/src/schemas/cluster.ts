import { Type, type Static } from '@sinclair/typebox';

// For orchestrators and load balancers running several replicas: liveness (the process answers)
// apart from readiness (this replica can serve: its database answers, it is not shutting down).

export const LiveSchema = Type.Object({ status: Type.Literal('ok') }, { title: 'Live' });
export type Live = Static<typeof LiveSchema>;

export const ReadySchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('unavailable')], {
      description: 'ready: all well; degraded: Redis is down (rate limits count per replica meanwhile); unavailable: send no traffic here',
    }),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
    redis: Type.Union([Type.Literal('ok'), Type.Literal('unreachable'), Type.Literal('not-configured')]),
    shuttingDown: Type.Boolean(),
  },
  { title: 'Ready' },
);
export type Ready = Static<typeof ReadySchema>;

/** The Prometheus text exposition format. */
export const MetricsSchema = Type.String({ title: 'Metrics', description: 'Prometheus text format 0.0.4' });
