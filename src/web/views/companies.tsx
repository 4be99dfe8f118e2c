import type { CompanyListItem, TagListing } from '../../catalog/types.js';
import { type Choice, FilterForm } from '../components/filter-form.js';
import { Pager } from '../components/pager.js';
import { Tags } from '../components/tags.js';
import type { PageContext } from '../context.js';
import { COMPANY_CATEGORY_LABELS, plural } from '../format.js';
import { Layout } from '../layout.js';

export interface CompaniesData {
  /** The filter parameters and their schemas (src/catalog/fields/company-filters.ts). */
  params: Readonly<Record<string, unknown>>;
  values: Record<string, string | undefined>;
  /** The tag vocabulary: the choices of each dimension's facet. */
  tags: TagListing;
  companies: CompanyListItem[];
  total: number;
  page: number;
  lastPage: number;
}

const facets = (tags: TagListing): Record<string, Choice[]> =>
  Object.fromEntries(
    Object.entries(tags).map(([dimension, list]) => [
      dimension,
      list.map((t) => ({ value: t.slug, label: t.value })),
    ]),
  );

/** GET /companies: tag facets (OR within a dimension, AND across) and the category, then the companies. */
export function CompaniesView(props: { ctx: PageContext; data: CompaniesData }) {
  const { ctx, data } = props;
  const description = `${plural(data.total, 'AI company', 'AI companies')} hiring, by industry, stage and more.`;
  return (
    <Layout ctx={ctx} head={{ title: 'Companies', description }}>
      <h1>Companies</h1>
      <div class="grid side">
        <FilterForm
          action="/companies"
          params={data.params}
          values={data.values}
          optionLabels={{ category: COMPANY_CATEGORY_LABELS }}
          multi={facets(data.tags)}
        />
        <section aria-labelledby="results">
          <p id="results" class="summary" role="status">
            {data.total ? plural(data.total, 'company', 'companies') : 'No companies match'}
          </p>
          <ul class="companies">
            {data.companies.map((c) => (
              <li key={c.id}>
                <a class="title" href={`/companies/${c.slug}`}>
                  {c.name}
                </a>
                <div class="muted">{c.oneLiner}</div>
                <Tags tags={c.tags} />
              </li>
            ))}
          </ul>
          <Pager path="/companies" query={data.values} page={data.page} lastPage={data.lastPage} />
        </section>
      </div>
    </Layout>
  );
}
