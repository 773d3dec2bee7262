import { fileURLToPath } from 'node:url';
import { serveFrontEnd } from '@boatshop/web-server';

await serveFrontEnd('shell', fileURLToPath(new URL('./dist', import.meta.url)));
