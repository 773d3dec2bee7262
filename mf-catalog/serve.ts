import { fileURLToPath } from 'node:url';
import { serveFrontEnd } from '@boatshop/web-server';

await serveFrontEnd('mf-catalog', fileURLToPath(new URL('./dist', import.meta.url)));
