import { fileURLToPath } from 'node:url';
import { serveFrontEnd } from '@boatshop/web-server';

await serveFrontEnd('mf-account', fileURLToPath(new URL('./dist', import.meta.url)));
