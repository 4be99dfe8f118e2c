import { createHash } from 'node:crypto';
import { ENHANCE_SCRIPT } from '../web/enhance.js';
import type { App } from './types.js';

/**
 * Headers every response carries, so a page holding a hostile value (a board's posting, a company's text) cannot
 * run it even if an escape were missed: a Content-Security-Policy that runs no script but the site's own inline
 * one (by its hash) and loads styles, images and form targets from this origin only; no MIME sniffing; the
 * referrer cut to the origin when a reader follows a link away; and no framing by other sites (frame-ancestors
 * for current browsers, X-Frame-Options for older ones). JSON and feeds carry them too: a browser that opens one
 * directly gets the same containment. /docs (Swagger UI) sets its own policy over this one (src/http/documents/docs.ts).
 */
const ENHANCE_HASH = `'sha256-${createHash('sha256').update(ENHANCE_SCRIPT).digest('base64')}'`;

export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${ENHANCE_HASH}`,
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
} as const;

/** Sets SECURITY_HEADERS on every reply, first thing (errors and cached answers included). */
export function registerSecurityHeaders(app: App): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
