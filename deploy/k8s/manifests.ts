// The shop on Kubernetes as typed objects (kubernetes-models, each checked with .validate()),
// written to boatshop.k8s.json by `npx tsx deploy/k8s/generate.ts` (kubectl apply -f takes the
// List as it is). The same topology as docker-compose.yml (test/k8s-manifests.test.ts compares
// them): the API and the shell's server as Deployments with probes, resources, an HPA and a PDB
// each; the four remotes as static nginx sites, and nginx in front of the release registry's
// bucket; a migration Job run before a rollout; the proxy becomes the Ingress. PostgreSQL (e.g.
// CloudNativePG), Redis and the object storage are services run apart; their URLs, like every
// secret, come from the Secret `boatshop-secrets`, never inlined.
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';

export const NAMESPACE = 'boatshop';
export const SECRET = 'boatshop-secrets';
export const REMOTES = ['mf-catalog', 'mf-cart-checkout', 'mf-account', 'mf-admin'] as const;

const secret = (name: string, optional = false): IEnvVar => ({ name, valueFrom: { secretKeyRef: { name: SECRET, key: name, optional } } });
const value = (name: string, text: string): IEnvVar => ({ name, value: text });

/** The API's environment: the same names as docker-compose.yml's api service, secrets by reference. */
export const API_ENV: IEnvVar[] = [
  value('NODE_ENV', 'production'),
  value('API_HOST', '0.0.0.0'),
  value('API_PORT', '4000'),
  secret('DATABASE_URL'),
  secret('REDIS_URL'),
  value('PUBLIC_URL', 'https://shop.example.com'),
  secret('JWT_SECRET'),
  secret('SAVED_SEARCH_ALERTS_SECRET'),
  secret('STRIPE_SECRET_KEY'),
  secret('STRIPE_PUBLISHABLE_KEY'),
  secret('STRIPE_WEBHOOK_SECRET'),
  value('OIDC_ISSUER', 'https://accounts.google.com'),
  secret('OIDC_CLIENT_ID', true),
  secret('OIDC_CLIENT_SECRET', true),
  secret('SMTP_URL', true),
  value('MAIL_FROM', 'Boat shop <no-reply@boatshop.example>'),
  // The ingress controller's pods: only they may say who the client is.
  value('TRUST_PROXY', '10.0.0.0/8'),
  secret('BANK_ACCOUNT_HOLDER'),
  secret('BANK_IBAN'),
  secret('BANK_BIC'),
  secret('METRICS_TOKEN'),
  // find: uploaded pictures' object storage (every replica serves every picture)
  secret('S3_ENDPOINT'),
  secret('S3_BUCKET'),
  value('S3_REGION', 'eu-central-1'),
  secret('S3_ACCESS_KEY_ID'),
  secret('S3_SECRET_ACCESS_KEY'),
  // Below terminationGracePeriodSeconds (30 s), so the API ends its own shutdown first.
  value('SHUTDOWN_GRACE_MS', '20000'),
  // Traces: the cluster's OpenTelemetry Collector (OTLP over HTTP); empty turns tracing off.
  value('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://otel-collector.observability:4318'),
];

export const SHELL_ENV: IEnvVar[] = [
  value('API_URL', 'http://api:4000'),
  value('PUBLIC_URL', 'https://shop.example.com'),
  value('REMOTES_MANIFEST', '/etc/boatshop/remotes.json'),
  // The release registry in a bucket (docs/adr/0083): every replica reads it, the CLI writes it.
  value('REGISTRY_STORE', 's3'),
  value('REGISTRY_S3_BUCKET', 'boatshop-releases'),
  value('REGISTRY_S3_PREFIX', ''),
  // Unset on AWS itself; an S3-compatible service's origin otherwise.
  secret('S3_ENDPOINT', true),
  value('S3_FORCE_PATH_STYLE', 'false'),
  value('AWS_REGION', 'eu-central-1'),
  secret('AWS_ACCESS_KEY_ID'),
  secret('AWS_SECRET_ACCESS_KEY'),
  value('REMOTES_ENV', 'production'),
  value('REMOTES_RELEASES_URL', '/releases'),
  secret('REMOTES_PREVIEW_SECRET'),
  // Signs the canary cookie; the same on every replica (unset: derived from the preview secret).
  secret('CANARY_COOKIE_SECRET', true),
  // The ingress controller's pods: the canary's failure reports are limited per visitor's address.
  value('TRUST_PROXY', '10.0.0.0/8'),
  value('REMOTES_COUNTS_FLUSH_MS', '5000'),
  secret('METRICS_TOKEN'),
  value('SHUTDOWN_GRACE_MS', '20000'),
  value('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://otel-collector.observability:4318'),
  value('HOST', '0.0.0.0'),
];

const labels = (app: string) => ({ 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': 'boatshop' });
const metadata = (name: string) => ({ name, namespace: NAMESPACE, labels: labels(name) });

interface AppSpec {
  name: string;
  image: string;
  port: number;
  env?: IEnvVar[];
  replicas: number;
  maxReplicas?: number;
  ready?: string;
  live?: string;
  cpu: string;
  memory: string;
  volumes?: { name: string; mountPath: string; configMap: string; readOnly?: boolean }[];
  metricsPath?: string;
}

function deployment(spec: AppSpec): Deployment {
  return new Deployment({
    metadata: metadata(spec.name),
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: labels(spec.name) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: {
          labels: labels(spec.name),
          annotations: spec.metricsPath
            ? { 'prometheus.io/scrape': 'true', 'prometheus.io/path': spec.metricsPath, 'prometheus.io/port': String(spec.port) }
            : {},
        },
        spec: {
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: spec.name,
              image: spec.image,
              ports: [{ name: 'http', containerPort: spec.port }],
              env: spec.env ?? [],
              resources: { requests: { cpu: spec.cpu, memory: spec.memory }, limits: { memory: spec.memory } },
              readinessProbe: {
                httpGet: { path: spec.ready ?? '/', port: 'http' },
                periodSeconds: 5,
                timeoutSeconds: 2,
                failureThreshold: 2,
              },
              livenessProbe: {
                httpGet: { path: spec.live ?? '/', port: 'http' },
                periodSeconds: 10,
                timeoutSeconds: 2,
                failureThreshold: 3,
                initialDelaySeconds: 10,
              },
              // The endpoints controller takes the pod out of the Service before SIGTERM arrives.
              lifecycle: { preStop: { sleep: { seconds: 5 } } },
              securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: false },
              volumeMounts: (spec.volumes ?? []).map((v) => ({ name: v.name, mountPath: v.mountPath, readOnly: v.readOnly ?? false })),
            },
          ],
          volumes: (spec.volumes ?? []).map((v) => ({ name: v.name, configMap: { name: v.configMap } })),
        },
      },
    },
  });
}

const service = (name: string, port: number) =>
  new Service({ metadata: metadata(name), spec: { selector: labels(name), ports: [{ name: 'http', port, targetPort: 'http' }] } });

const autoscaler = (name: string, min: number, max: number) =>
  new HorizontalPodAutoscaler({
    metadata: metadata(name),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: min,
      maxReplicas: max,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    },
  });

const disruptionBudget = (name: string) =>
  new PodDisruptionBudget({ metadata: metadata(name), spec: { minAvailable: 1, selector: { matchLabels: labels(name) } } });

const IMAGE = 'registry.example.com/boatshop';

export const API: AppSpec = {
  name: 'api',
  image: `${IMAGE}/api:latest`,
  port: 4000,
  env: API_ENV,
  replicas: 2,
  maxReplicas: 10,
  ready: '/api/ready',
  live: '/api/live',
  cpu: '250m',
  memory: '384Mi',
  metricsPath: '/api/metrics',
};
export const SHELL: AppSpec = {
  name: 'shell',
  image: `${IMAGE}/shell:latest`,
  port: 3000,
  env: SHELL_ENV,
  replicas: 2,
  maxReplicas: 10,
  cpu: '100m',
  memory: '192Mi',
  metricsPath: '/metrics',
  volumes: [{ name: 'remotes', mountPath: '/etc/boatshop', configMap: 'boatshop-remotes', readOnly: true }],
};
const staticSite = (name: string): AppSpec => ({
  name,
  image: `${IMAGE}/${name}:latest`,
  port: 80,
  replicas: 2,
  cpu: '20m',
  memory: '32Mi',
});

/** Every object, in the order kubectl should apply them. */
export function manifests() {
  const migration = new Job({
    metadata: { ...metadata('migrate'), annotations: { 'helm.sh/hook': 'pre-upgrade,pre-install', 'argocd.argoproj.io/hook': 'PreSync' } },
    spec: {
      backoffLimit: 2,
      ttlSecondsAfterFinished: 3600,
      template: {
        metadata: { labels: labels('migrate') },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'migrate',
              image: API.image,
              command: ['node', 'dist/scripts/migrate.js'],
              env: [value('NODE_ENV', 'production'), secret('DATABASE_URL')],
              resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '256Mi' } },
            },
          ],
        },
      },
    },
  });
  const sites = [...REMOTES, 'releases'].map(staticSite);
  // nginx in front of the bucket's releases/, readable by anyone (deploy/releases.conf, docs/adr/0084).
  sites.find((site) => site.name === 'releases')!.env = [
    value('RELEASES_BUCKET_URL', 'https://s3.eu-central-1.amazonaws.com/boatshop-releases/releases/'),
  ];
  const ingress = new Ingress({
    metadata: { ...metadata('boatshop'), annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '1m' } },
    spec: {
      ingressClassName: 'nginx',
      tls: [{ hosts: ['shop.example.com'], secretName: 'boatshop-tls' }],
      rules: [
        {
          host: 'shop.example.com',
          http: {
            paths: [
              { path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { name: 'http' } } } },
              { path: '/releases', pathType: 'Prefix', backend: { service: { name: 'releases', port: { name: 'http' } } } },
              ...REMOTES.map((remote) => ({
                path: `/remotes/${remote}`,
                pathType: 'Prefix' as const,
                backend: { service: { name: remote, port: { name: 'http' } } },
              })),
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'shell', port: { name: 'http' } } } },
            ],
          },
        },
      ],
    },
  });
  return [
    migration,
    ...[API, SHELL].flatMap((app) => [
      deployment(app),
      service(app.name, app.port),
      autoscaler(app.name, app.replicas, app.maxReplicas!),
      disruptionBudget(app.name),
    ]),
    ...sites.flatMap((site) => [deployment(site), service(site.name, site.port)]),
    ingress,
  ];
}
