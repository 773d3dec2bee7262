export { RegistryError } from './errors';
export { KNOWN_REMOTES, assertKnownRemote, assertEnvironment } from './remotes';
export { SINGLETON_PACKAGES, readSingletons, compatibilityProblems, type Singletons, type SingletonVersion } from './singletons';
export { CANARY_COOKIE, canaryBucket, canaryVerdict, inCanary, isVisitorSeed, newVisitorSeed, type Tally } from './canary';
export { REPLICA_NAME, describeTally, mergeTallies, parseCounts, tallyOf, type CountsFile, type Tallies } from './counts';
export {
  PREVIEW_COOKIE,
  PREVIEW_SECRET_FILE,
  PREVIEW_TTL_MS,
  previewCookieValue,
  previewSecret,
  verifyPreviewCookie,
  type Preview,
} from './preview';
export { FileRegistryStore, writeAtomically } from './file-store';
export { S3RegistryStore, IMMUTABLE_CACHE, type S3StoreSettings } from './s3-store';
export { registryStoreFromEnv, registryStoreKind, previewSecretOf } from './store-config';
export { contentTypeOf, isReleaseId, isReleasePath } from './release-paths';
export { withLock } from './lock';
export { contentHash, publishRelease, releaseRouteCollisions, type PublishInput, type PublishResult } from './publish';
export {
  promote,
  rollback,
  withdrawCanary,
  findRelease,
  routePaths,
  manifestForVisitor,
  hasCanary,
  describe,
  age,
  parseShare,
} from './registry';
export { parseEnvironmentState, RELEASE_ID } from './validate';
export * from './types';
