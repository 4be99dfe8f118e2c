import { type PageContext, queryString } from '../context.js';
import type { ParamSchema } from './filter-form.js';

/** A watch's filters as its API takes them: booleans and integers as JSON values, the rest as text. */
function watchFilters(
  values: Readonly<Record<string, string | undefined>>,
  params: Readonly<Record<string, unknown>>,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!value || !(name in params)) continue;
    const type = (params[name] as ParamSchema).type;
    out[name] = type === 'boolean' ? value === 'true' : type === 'integer' ? Number(value) : value;
  }
  return out;
}

/** Quotes text for a POSIX shell's single quotes. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * "Follow this search": the Atom feed of the listing's filters and search, which any feed reader follows without an
 * account, and for a token holder the exact API call that creates a watch of the same filters (each new match
 * posted to a webhook). A `<details>`, so it takes one line until opened.
 */
export function FollowSearch(props: {
  ctx: PageContext;
  /** The listing's filters and search (no order, no page). */
  values: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, unknown>>;
}) {
  const { ctx, values } = props;
  const api = `${ctx.origin}${ctx.apiPrefix}`;
  const feed = `${api}/jobs/feed.atom${queryString(values)}`;
  const body = {
    filters: watchFilters(values, props.params),
    ...(values.search ? { search: values.search } : {}),
    url: 'https://hooks.example.com/frontline',
  };
  const curl =
    `curl -X POST ${api}/watches \\\n  -H "Authorization: Bearer $FRONTLINE_TOKEN" \\\n` +
    `  -H "Content-Type: application/json" \\\n  -d ${shellQuote(JSON.stringify(body))}`;
  return (
    <details class="follow">
      <summary>Follow this search</summary>
      <p>
        <a href={feed} type="application/atom+xml">
          Atom feed of this search
        </a>
        : paste it into any feed reader to see new matches, no account needed.
      </p>
      <p>
        With an API token, a watch posts each new match to your webhook, signed (the answer holds its signing
        secret, shown once). Replace the URL with your receiver's:
      </p>
      <pre>
        <code>{curl}</code>
      </pre>
      <p class="muted">
        Webhooks go to public addresses only. To try one on your own machine, map a public name to your local
        receiver with <code>OUTBOUND_HOST_MAP</code> (see <a href="/docs">the API reference</a>, watches).
      </p>
    </details>
  );
}
