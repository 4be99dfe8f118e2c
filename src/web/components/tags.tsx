import type { CompanyTag } from '../../catalog/types.js';
import { DIMENSION_LABELS } from '../format.js';

/**
 * A company's tags, each linking to the companies sharing it and named with its dimension: one value may stand in
 * two dimensions ("AI Infrastructure" is an industry and a role of AI), and the two links filter differently.
 */
export function Tags(props: { tags: CompanyTag[] }) {
  if (!props.tags.length) return null;
  return (
    <div>
      {props.tags.map((t) => (
        <a class="tag" href={`/companies?${t.dimension}=${t.slug}`} key={`${t.dimension}:${t.slug}`}>
          <span class="dim">{DIMENSION_LABELS[t.dimension]}:</span> {t.value}
        </a>
      ))}
    </div>
  );
}
