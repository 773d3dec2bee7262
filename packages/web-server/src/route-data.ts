// Route data (the pages each remote declares in its src/routes.ts) for the apps, which all depend
// on this package already: the one definition lives in @boatshop/release-registry, which records
// it with each release and checks collisions (see that file).
export * from '@boatshop/release-registry/route-data';
