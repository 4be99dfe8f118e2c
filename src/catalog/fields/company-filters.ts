import { Type } from 'typebox';
import { type CompanyCategory, TAG_DIMENSIONS, type TagDimension } from '../vocabulary.js';
import { type CompanyFacetRow, companyFilter, type FiltersOf, type SqlTarget } from './define.js';
import { CompanyCategorySchema, slugListParam } from './params.js';

/** The filters of GET /companies, each declared once (see define.ts). */

/** Examples that together match a sample-catalog company (see QueryText on examples). */
const TAG_EXAMPLES: Record<TagDimension, string> = {
  industry: 'ai-infrastructure,developer-tools',
  stage: 'late-stage',
  business_model: 'usage-based-api,b2b-saas',
  ai_role: 'foundation-models',
  funding_tier: 'over-1b',
};

const TagSlugsParam = (dimension: TagDimension) =>
  Type.Optional(
    Type.String({
      maxLength: 1000,
      description: `Comma-separated ${dimension} tag slugs (see GET /tags); a company matches any of them`,
      examples: [TAG_EXAMPLES[dimension]],
    }),
  );

type TagFilter = Partial<Record<TagDimension, string[]>>;

/** One parameter per tag dimension: slugs OR within a dimension, dimensions AND together. */
const tags = companyFilter({
  key: 'tags',
  facet: 'tags',
  params: Object.fromEntries(TAG_DIMENSIONS.map((d) => [d, TagSlugsParam(d)])),
  parse(q): TagFilter | undefined {
    let out: TagFilter | undefined;
    for (const dimension of TAG_DIMENSIONS) {
      const slugs = slugListParam(dimension, q[dimension]);
      if (slugs) out = { ...out, [dimension]: slugs };
    }
    return out;
  },
  // One semi-join per dimension given.
  sql: (v, to) =>
    TAG_DIMENSIONS.filter((d) => v[d] !== undefined)
      .map(
        (d) =>
          `${to.alias}.id IN (SELECT ft.company_id FROM company_tags ft JOIN tags t ON t.id = ft.tag_id ` +
          `WHERE t.dimension = ${to.param(d)} AND t.slug = ANY(${to.param(v[d])}::text[]))`,
      )
      .join(' AND ') || 'true',
  // One facet per dimension, each counted without that dimension's slugs only.
  facets: TAG_DIMENSIONS.map((d) => ({
    name: d,
    value: () => 'fct.slug',
    join: (to: SqlTarget) =>
      `JOIN company_tags fcg ON fcg.company_id = ${to.alias}.id ` +
      `JOIN tags fct ON fct.id = fcg.tag_id AND fct.dimension = ${to.param(d)}`,
    keys: (a: CompanyFacetRow) => {
      const keys: string[] = [];
      for (const tag of a.tags) if (tag.startsWith(`${d}:`)) keys.push(tag.slice(d.length + 1));
      return keys;
    },
    without(v: TagFilter): TagFilter | undefined {
      const { [d]: _dropped, ...rest } = v;
      return Object.keys(rest).length > 0 ? rest : undefined;
    },
  })),
  test(v) {
    const dims = TAG_DIMENSIONS.flatMap((d) => (v[d] ? [v[d].map((s) => `${d}:${s}`)] : []));
    return (a) => dims.every((wanted) => wanted.some((t) => a.tags.has(t)));
  },
});

const category = companyFilter({
  key: 'category',
  facet: 'category',
  params: { category: Type.Optional(CompanyCategorySchema) },
  parse: (q) => (q.category as CompanyCategory | undefined) || undefined,
  sql: (v, to) => `${to.alias}.category = ${to.param(v)}`,
  test: (v) => (a) => a.category === v,
  facets: [{ name: 'category', value: (to) => `${to.alias}.category::text`, keys: (a) => [a.category] }],
});

export const COMPANY_FILTERS = [tags, category] as const;

/** Filters of GET /companies: tag slugs OR within a dimension, AND across dimensions; category equality. */
export type CompanyFilters = FiltersOf<typeof COMPANY_FILTERS>;
