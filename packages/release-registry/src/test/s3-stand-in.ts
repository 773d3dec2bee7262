import { S3Client } from '@aws-sdk/client-s3';
import { startS3Standin, type RunningS3Standin } from '@boatshop/dev-services/s3';

// The S3 stand-in of dev-services for the registry's tests: one per test file, on a free port.

export const TEST_BUCKET = 'boatshop-releases';
let s3: Promise<{ server: RunningS3Standin; client: S3Client }> | null = null;

/** The stand-in and a client of it, started on first use. */
export function s3StandIn(): Promise<{ server: RunningS3Standin; client: S3Client }> {
  s3 ??= startS3Standin({ port: 0, buckets: [TEST_BUCKET] }).then((server) => ({
    server,
    client: new S3Client({
      endpoint: server.url,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    }),
  }));
  return s3;
}

export async function stopS3StandIn(): Promise<void> {
  const running = s3;
  s3 = null;
  if (!running) return;
  const { server, client } = await running;
  client.destroy();
  await server.close();
}
