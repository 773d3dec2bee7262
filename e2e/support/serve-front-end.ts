// Runs one front end's production server on a dist folder of the test's choosing:
//   tsx e2e/support/serve-front-end.ts <app> <distDir>
// (port and shell origin from the environment, as for `npm start -w <app>`).
import { serveFrontEnd, type FrontEndName } from '@boatshop/web-server';

const [app, distDir] = process.argv.slice(2);
if (!app || !distDir) throw new Error('usage: serve-front-end.ts <app> <distDir>');
await serveFrontEnd(app as FrontEndName, distDir);
