import { startTelemetry } from './telemetry.js';

// Imported first by server.ts, so tracing is in place before anything loads `pg`.
export const telemetry = startTelemetry(process.env);
