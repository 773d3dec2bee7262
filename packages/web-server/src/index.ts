export { SERVICE_PORTS, portOf } from './ports';
export type { ServiceName } from './ports';
export { remotesManifest } from './remotes';
export type { RemotesManifest } from './remotes';
export { cacheControlFor, createWebServer, defaultShellOrigins, parseOrigins } from './server';
export type { RemoteServerOptions, ShellServerOptions, WebServerOptions } from './server';
export { PortInUseError, listen, serveFrontEnd } from './serve';
export type { FrontEndName } from '@boatshop/remotes';
