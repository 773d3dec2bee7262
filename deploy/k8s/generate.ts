// npx tsx deploy/k8s/generate.ts && npx prettier --write deploy/k8s/boatshop.k8s.json: validates
// every object and writes them as one List.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifests } from './manifests';

const objects = manifests();
for (const object of objects) object.validate();
writeFileSync(
  join(import.meta.dirname, 'boatshop.k8s.json'),
  `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects.map((o) => o.toJSON()) }, null, 2)}\n`,
);
console.log(`deploy/k8s/boatshop.k8s.json: ${objects.length} objects`);
