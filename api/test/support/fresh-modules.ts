import { vi } from 'vitest';

// A setup file (vitest.config.ts). Test files share a worker process (isolate: false), so what it
// loaded from node_modules (Fastify, pg, PGlite's compiled WebAssembly, …) is loaded once per worker
// instead of once per file. The project's own modules (src/, test/) are evaluated afresh for every
// file, as with isolation: their module state (the helpers' counters, caches) starts over, and a
// file's vi.mock reaches the app it builds.
vi.resetModules();
