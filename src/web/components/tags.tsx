import type { CompanyTag } from '../../catalog/types.js';

/** A company's tags, each linking to the companies sharing it. */
export function Tags(props: { tags: CompanyTag[] }) {
  if (!props.tags.length) return null;
  return (
    <div>
      {props.tags.map((t) => (
        <a class="tag" href={`/companies?${t.dimension}=${t.slug}`} key={`${t.dimension}:${t.slug}`}>
          {t.value}
        </a>
      ))}
    </div>
  );
}
