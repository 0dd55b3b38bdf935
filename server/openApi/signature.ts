import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The open platform's request signing (issue 23): what a tenant's system sends, how the server
 * checks it (the secret is kept sealed: server/security/secrets.ts).
 *
 * A call carries four headers: `x-access-key` (the tenant's access key, `ak_` and 32 hex digits),
 * `x-timestamp` (Unix time in seconds), `x-nonce` (16–64 letters, digits, `_` or `-`, never used
 * twice by one key) and `x-signature`, the lowercase hex HMAC-SHA256, under the key's secret, of
 *
 *     METHOD \n PATH \n ACCESS_KEY \n TIMESTAMP \n NONCE \n hex(SHA-256(body))
 *
 * where PATH is the request path as sent (`/api/open/v1/device/_page`, with its query if any) and
 * the body is hashed byte for byte as sent (an empty body hashes the empty string). Timestamp and
 * nonce are signed too: a captured request cannot be sent again with a fresh nonce or time.
 */

export const OPEN_API_HEADERS = { accessKey: 'x-access-key', timestamp: 'x-timestamp', nonce: 'x-nonce', signature: 'x-signature' } as const;

/** How far a request's timestamp may lie from the server's clock, either way. */
export const CLOCK_SKEW_SECONDS = 300;

export const ACCESS_KEY_PATTERN = /^ak_[0-9a-f]{32}$/;
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

/** The signed headers of a request, each well formed. */
export interface SignedHeaders {
  accessKey: string;
  timestamp: number;
  nonce: string;
  signature: string;
}

/** The four headers when each is present and well formed; null otherwise. */
export function signedHeadersOf(read: (name: string) => string | undefined): SignedHeaders | null {
  const accessKey = read(OPEN_API_HEADERS.accessKey);
  const timestamp = read(OPEN_API_HEADERS.timestamp);
  const nonce = read(OPEN_API_HEADERS.nonce);
  const signature = read(OPEN_API_HEADERS.signature);
  if (!accessKey || !ACCESS_KEY_PATTERN.test(accessKey)) return null;
  if (!timestamp || !TIMESTAMP_PATTERN.test(timestamp)) return null;
  if (!nonce || !NONCE_PATTERN.test(nonce)) return null;
  if (!signature || !SIGNATURE_PATTERN.test(signature.toLowerCase())) return null;
  return { accessKey, timestamp: Number(timestamp), nonce, signature: signature.toLowerCase() };
}

export interface SignedRequest {
  method: string;
  path: string;
  accessKey: string;
  timestamp: number | string;
  nonce: string;
  body: Buffer | string;
}

/** The text a request's signature is computed over. */
export function stringToSign(request: SignedRequest): string {
  const bodyHash = createHash('sha256').update(request.body).digest('hex');
  return [request.method.toUpperCase(), request.path, request.accessKey, String(request.timestamp), request.nonce, bodyHash].join('\n');
}

/** The signature of a request under `secret` (lowercase hex). */
export function signRequest(secret: string, request: SignedRequest): string {
  return createHmac('sha256', secret).update(stringToSign(request)).digest('hex');
}

/** Whether `signature` is the request's, compared in constant time. */
export function signatureMatches(secret: string, request: SignedRequest, signature: string): boolean {
  const expected = Buffer.from(signRequest(secret, request), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether a timestamp (seconds) lies within the skew window around `now`. */
export function timestampFresh(timestamp: number, now: Date): boolean {
  return Math.abs(now.getTime() / 1000 - timestamp) <= CLOCK_SKEW_SECONDS;
}

/** A new secret: `sk_` and 43 base64url characters (256 random bits). */
export function newSecret(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

// The secret at rest (sealed, bound to its access key): server/security/secrets.ts.
