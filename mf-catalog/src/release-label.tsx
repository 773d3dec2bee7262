/**
 * Names the release this remote was built as (RELEASE_LABEL at build time); renders nothing
 * without one. The e2e suite rebuilds the catalog with a label and expects to see it after a
 * reload, which proves a new release reaches the running shell.
 */
export function ReleaseLabel() {
  const label = process.env.RELEASE_LABEL;
  return label ? <p className="catalog-release">Catalog release {label}</p> : null;
}
