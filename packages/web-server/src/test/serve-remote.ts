// Runs one front end's production server the way `npm start -w mf-catalog` does, on the dist
// folder given as the first argument (for graceful-shutdown.test.ts).
import { serveFrontEnd } from '../serve';

await serveFrontEnd('mf-catalog', process.argv[2]!);
