import { fileURLToPath } from 'node:url';
import { serveFrontEnd } from '@boatshop/web-server';

// The shell's front-end build is shell/dist, whether this runs as TypeScript (shell/serve.ts) or
// as the built server (shell/server/dist/serve.js, made by build-server.mjs).
const built = import.meta.url.endsWith('/server/dist/serve.js');
await serveFrontEnd('shell', fileURLToPath(new URL(built ? '../../dist' : './dist', import.meta.url)));
