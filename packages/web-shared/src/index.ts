export * from './route-data';
export * from './shared-runtime';
export * from './remotes-body';
