import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A photo as a phone takes it: a JPEG whose EXIF carries the camera and a GPS position (a marina). */
export async function jpegWithGps(options: { width?: number; height?: number; colour?: string } = {}): Promise<Buffer> {
  const { width = 1200, height = 800, colour = '#3a7bd5' } = options;
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Harbour 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '43/1 17/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '5/1 22/1 1200/100' },
    })
    .toBuffer();
}

export async function plainPng(width = 640, height = 480, colour = '#d53a3a'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a few hundred bytes that announce 50,000 × 50,000 pixels (7.5 GB once
 * decoded). Its header is valid; its data holds a few rows only, as a bomb needs no more to be refused.
 */
export function bombPng(side = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const rows = Buffer.alloc((side * 3 + 1) * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A multipart/form-data body as a browser's FormData sends it: the text fields, then the file. */
export function multipart(
  file: { name: string; type: string; body: Buffer } | null,
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----boatshop${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.body,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
