import { queryString } from '../context.js';

export interface PagerProps {
  path: string;
  /** The page's query without `page`. */
  query: Record<string, string | undefined>;
  page: number;
  /** The last page that can be shown: within the result window. */
  lastPage: number;
}

/** Previous / next links within the result window; the URL carries the page, so back and forward work. */
export function Pager(props: PagerProps) {
  const href = (page: number) =>
    `${props.path}${queryString({ ...props.query, page: page === 1 ? undefined : String(page) })}`;
  if (props.lastPage <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {props.page > 1 ? (
        <a class="button secondary" rel="prev" href={href(props.page - 1)}>
          ← Previous
        </a>
      ) : null}
      <span>
        Page {props.page} of {props.lastPage}
      </span>
      {props.page < props.lastPage ? (
        <a class="button secondary" rel="next" href={href(props.page + 1)}>
          Next →
        </a>
      ) : null}
    </nav>
  );
}
