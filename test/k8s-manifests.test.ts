import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifests, SECRET } from '../deploy/k8s/manifests';

// The Kubernetes manifests (deploy/k8s/manifests.ts): valid objects, probes, resources, HPA and
// PDB, a migration Job, secrets by reference only, and the same topology as docker-compose.yml.

const ROOT = join(import.meta.dirname, '..');
const objects = manifests();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the objects as plain JSON, walked by path
type Json = Record<string, any>;
const json = objects.map((object) => object.toJSON() as Json);
const of = (kind: string, name: string) => json.find((o) => o.kind === kind && o.metadata.name === name);
const deployments = json.filter((o) => o.kind === 'Deployment');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Json> };

describe('the Kubernetes manifests', () => {
  it('are valid Kubernetes objects', () => {
    for (const object of objects) expect(() => object.validate()).not.toThrow();
  });

  it.each(['api', 'shell'])('%s: probes, resource requests, an autoscaler and a disruption budget', (name) => {
    const container = of('Deployment', name)!.spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe(name === 'api' ? '/api/ready' : '/');
    expect(container.livenessProbe.httpGet.path).toBe(name === 'api' ? '/api/live' : '/');
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(of('HorizontalPodAutoscaler', name)!.spec.scaleTargetRef.name).toBe(name);
    expect(of('PodDisruptionBudget', name)!.spec.selector.matchLabels).toEqual(of('Deployment', name)!.spec.selector.matchLabels);
    expect(of('Service', name)).toBeDefined();
  });

  it('runs the migrations as a Job before a rollout', () => {
    const job = of('Job', 'migrate')!;
    expect(job.metadata.annotations['argocd.argoproj.io/hook']).toBe('PreSync');
    expect(job.spec.template.spec.containers[0].command.join(' ')).toContain('migrate');
  });

  it('references every secret and inlines none', () => {
    const containers = json.flatMap((o) => o.spec?.template?.spec?.containers ?? []);
    const env = containers.flatMap((c: Json) => c.env ?? []);
    const sensitive = env.filter((e: Json) => /SECRET|TOKEN|PASSWORD|KEY|DATABASE_URL|REDIS_URL|SMTP_URL|IBAN/.test(e.name));
    expect(sensitive.length).toBeGreaterThan(5);
    for (const variable of sensitive) {
      expect(variable.value, variable.name).toBeUndefined();
      expect(variable.valueFrom.secretKeyRef.name).toBe(SECRET);
    }
    expect(json.some((o) => o.kind === 'Secret')).toBe(false);
  });

  it('describe the same topology as docker-compose.yml', () => {
    // db, redis and the object storage are services run apart (CloudNativePG, a managed Redis, a
    // provider's S3); the proxy is the Ingress.
    const composeApps = Object.keys(compose.services).filter((name) => !['db', 'redis', 'minio', 'minio-setup', 'proxy'].includes(name));
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(composeApps.sort());
    expect(json.filter((o) => o.kind === 'Ingress')).toHaveLength(1);
    const routed = of('Ingress', 'boatshop')!.spec.rules[0].http.paths.map((p: Json) => p.backend.service.name);
    expect([...new Set(routed)].sort()).toEqual(composeApps.sort());
    for (const app of ['api', 'shell']) {
      const names = of('Deployment', app)!.spec.template.spec.containers[0].env.map((e: Json) => e.name);
      expect(names).toEqual(expect.arrayContaining(Object.keys(compose.services[app]!.environment)));
    }
    expect(of('Deployment', 'shell')!.spec.replicas).toBe(compose.services.shell!.deploy.replicas);
  });

  it('are written to deploy/k8s/boatshop.k8s.json as generated (npx tsx deploy/k8s/generate.ts)', () => {
    const written = JSON.parse(readFileSync(join(ROOT, 'deploy/k8s/boatshop.k8s.json'), 'utf8'));
    expect(written.items).toEqual(JSON.parse(JSON.stringify(json)));
  });

  it.runIf(existsSync('/usr/bin/docker-compose'))('docker-compose.yml validates (docker-compose config)', () => {
    const result = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config', '-q'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
  });
});
