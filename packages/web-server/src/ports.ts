// The port table is @boatshop/remotes; the web server's modules import it from here.
export { SERVICE_PORTS, portOf, type ServiceName } from '@boatshop/remotes';
