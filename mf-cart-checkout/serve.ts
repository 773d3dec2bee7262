import { fileURLToPath } from 'node:url';
import { serveFrontEnd } from '@boatshop/web-server';

await serveFrontEnd('mf-cart-checkout', fileURLToPath(new URL('./dist', import.meta.url)));
