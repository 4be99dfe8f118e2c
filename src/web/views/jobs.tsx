import type { JobListItem } from '../../catalog/types.js';
import { REGION_NAMES } from '../../sources/normalize/regions.js';
import { FilterForm, type ParamSchema } from '../components/filter-form.js';
import { FollowSearch } from '../components/follow-search.js';
import { type JobCards, JobList } from '../components/job-list.js';
import { Pager } from '../components/pager.js';
import { type PageContext, queryString } from '../context.js';
import { plural, ROLE_LABELS } from '../format.js';
import { Layout } from '../layout.js';

export interface JobsData {
  /** The filter parameters and their schemas (src/catalog/fields/job-filters.ts). */
  params: Readonly<Record<string, unknown>>;
  /** The query as given: filters and search, no page. */
  values: Record<string, string | undefined>;
  jobs: JobListItem[];
  /** Jobs per role category with the other filters (the role_category facet). */
  roleCounts: Readonly<Record<string, number>>;
  /** Matching jobs; for a search, the size of its shortlist. */
  total: number;
  search: string | undefined;
  /** The most results a search ranks. */
  shortlist: number;
  page: number;
  lastPage: number;
  offset: number;
  /** The `sort` parameter and its schema (src/catalog/fields/job-order.ts). */
  sortParam: Readonly<Record<string, unknown>>;
  /** Pay and first sighting of the page's jobs, and since when a job is new. */
  cards: JobCards;
  /** How many days a job stays marked new. */
  newDays: number;
}

const SORT_LABELS: Record<string, string> = { newest: 'Newest', relevance: 'Best match', pay: 'Highest pay' };

/** The order of the results, as a small GET form of its own that carries the filters along. */
function SortForm(props: { data: JobsData }) {
  const { values, sortParam } = props.data;
  const [name, schema] = Object.entries(sortParam)[0] as [string, ParamSchema];
  // Relevance ranks a search: without one it is not offered.
  const options = (schema.enum ?? []).filter((v) => values.search || v !== 'relevance');
  const current = values.sort ?? (values.search ? 'relevance' : 'newest');
  return (
    <form class="sort" method="get" action="/jobs" data-enhance="">
      {Object.entries(values)
        .filter(([k, v]) => k !== name && v)
        .map(([k, v]) => (
          <input type="hidden" name={k} value={v} />
        ))}
      <label for="f-sort">Sort by</label>
      <select id="f-sort" name={name}>
        {options.map((v) => (
          <option value={v} selected={v === current}>
            {SORT_LABELS[v] ?? v}
          </option>
        ))}
      </select>
      <button type="submit" class="button secondary">
        Sort
      </button>
    </form>
  );
}

/** "42 jobs", or for a search "top 100 matches" when the shortlist is full: its total is the shortlist's size. */
function resultsText(d: JobsData): string {
  if (d.total === 0) return 'No jobs match';
  const shown = d.jobs.length ? ` · showing ${d.offset + 1}–${d.offset + d.jobs.length}` : '';
  if (d.search === undefined) return `${plural(d.total, 'job')}${shown}`;
  const head = d.total >= d.shortlist ? `Top ${d.total} matches` : plural(d.total, 'match', 'matches');
  return `${head} for “${d.search}”${shown}`;
}

function titleOf(values: JobsData['values']): string {
  const role = values.role_category as keyof typeof ROLE_LABELS | undefined;
  const what = role && ROLE_LABELS[role] ? `${ROLE_LABELS[role]} jobs` : 'Jobs';
  return values.search ? `${what} matching “${values.search}”` : what;
}

/** GET /jobs: the listing's filters as a form, the results, paging. */
export function JobsView(props: { ctx: PageContext; data: JobsData }) {
  const { ctx, data } = props;
  const title = titleOf(data.values);
  const { sort: _sort, ...filters } = data.values;
  const head = {
    title,
    description: `${resultsText(data)}: client-facing and other roles at AI companies.`,
    feedQuery: queryString(filters),
  };
  return (
    <Layout ctx={ctx} head={head}>
      <h1>{title}</h1>
      <div class="grid side">
        <FilterForm
          action="/jobs"
          params={data.params}
          values={data.values}
          optionLabels={{ role_category: ROLE_LABELS, region: REGION_NAMES }}
          optionCounts={{ role_category: data.roleCounts }}
          keep={data.values.sort ? [['sort', data.values.sort]] : []}
        />
        <section aria-labelledby="results">
          <div class="results-head">
            <p id="results" class="summary" role="status">
              {resultsText(data)}
            </p>
            <SortForm data={data} />
          </div>
          <FollowSearch ctx={ctx} values={filters} params={data.params} />
          <p class="muted">
            <span class="new">New</span> first seen by Frontline in the last {data.newDays} days.
          </p>
          <JobList jobs={data.jobs} cards={data.cards} />
          <Pager path="/jobs" query={data.values} page={data.page} lastPage={data.lastPage} />
        </section>
      </div>
    </Layout>
  );
}
