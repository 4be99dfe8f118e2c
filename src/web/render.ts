import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * A page as the bytes sent: preact-render-to-string escapes every text and attribute value it writes, so markup
 * comes only from the views themselves (and the two places that pass already-safe HTML: the sanitised markdown and
 * the JSON-LD, whose `<` is escaped).
 */
export const renderPage = (page: VNode): string => `<!doctype html>${renderToString(page)}`;

/** JSON for a <script> element: `<` as \u003c so no `</script>` (or `<!--`) can end it early. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
