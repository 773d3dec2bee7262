export * from './route-data';
export * from './shared-runtime';
