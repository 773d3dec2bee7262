export * from './route-data';
export * from './shared-runtime';
export * from './remotes-body';
export * from './server-pages';
