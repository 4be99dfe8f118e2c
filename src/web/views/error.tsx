import type { PageContext } from '../context.js';
import { Layout } from '../layout.js';

const TITLES: Record<number, string> = {
  400: 'That request could not be understood',
  404: 'Page not found',
  429: 'Too many requests',
};

/** An error as a page: what went wrong in words, and where to go next. */
export function ErrorView(props: { ctx: PageContext; status: number; message: string }) {
  const title = TITLES[props.status] ?? 'Something went wrong';
  return (
    <Layout ctx={props.ctx} head={{ title, description: props.message, noindex: true }}>
      <h1>{title}</h1>
      <p role="alert">{props.message}</p>
      <p>
        <a href="/jobs">Browse jobs</a> · <a href="/companies">Browse companies</a> · <a href="/">Home</a>
      </p>
    </Layout>
  );
}
