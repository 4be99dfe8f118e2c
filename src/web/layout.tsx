import type { ComponentChildren } from 'preact';
import type { PageContext, PageHead } from './context.js';
import { ENHANCE_SCRIPT } from './enhance.js';
import { scriptJson } from './render.js';
import { STYLESHEET_PATH } from './styles.js';

const SITE = 'Frontline';

/** Every page's frame: head (canonical URL, Open Graph, the Atom feed, structured data), skip link, header, footer. */
export function Layout(props: { ctx: PageContext; head: PageHead; children: ComponentChildren }) {
  const { ctx, head } = props;
  const url = `${ctx.origin}${ctx.path}`;
  const title = head.title === SITE ? SITE : `${head.title} · ${SITE}`;
  const feed = `${ctx.origin}${ctx.apiPrefix}/jobs/feed.atom${head.feedQuery ?? ''}`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={head.description} />
        {head.noindex ? <meta name="robots" content="noindex" /> : null}
        <link rel="canonical" href={url} />
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <link rel="alternate" type="application/atom+xml" title="Jobs (Atom)" href={feed} />
        <meta property="og:site_name" content={SITE} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={url} />
        <meta property="og:type" content={head.type ?? 'website'} />
        {head.jsonLd === undefined ? null : (
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(head.jsonLd) }} />
        )}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <div class="wrap">
            <a class="brand" href="/">
              {SITE}
            </a>
            <nav aria-label="Main">
              <ul>
                <li>
                  <a href="/jobs">Jobs</a>
                </li>
                <li>
                  <a href="/companies">Companies</a>
                </li>
                <li>
                  <a href="/trends">Trends</a>
                </li>
                <li>
                  <a href="/docs">API</a>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" class="wrap" tabIndex={-1}>
          {props.children}
        </main>
        <footer class="site">
          <div class="wrap">
            Client-facing roles at AI companies. <a href={feed}>Atom feed</a> ·{' '}
            <a href={`${ctx.apiPrefix}/openapi.json`}>OpenAPI</a> · <a href="/docs">API reference</a>
          </div>
        </footer>
        <script dangerouslySetInnerHTML={{ __html: ENHANCE_SCRIPT }} />
      </body>
    </html>
  );
}
