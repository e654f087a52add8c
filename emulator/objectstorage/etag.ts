import { createHash } from 'node:crypto';

export function md5Hex(data: Buffer): string {
  return createHash('md5').update(data).digest('hex');
}

/** An ETag as clients send it (quoted or not, any case) in the stored form: unquoted lowercase. */
export function stripQuotes(etag: string): string {
  return etag.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
}
