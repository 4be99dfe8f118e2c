import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks (standardwebhooks.com): each request carries `webhook-id` (the same on every attempt, so a
 * receiver de-duplicates by it), `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256
 * of id.timestamp.body>` under the watch's secret). Signed with the specification's own library.
 */

/** A new signing secret in the scheme's format: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A message id: `msg_` and 16 random bytes, URL-safe. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}
