import { Type } from 'typebox';
import { badRequest } from '../../errors.js';
import { COMPANY_CATEGORIES, ROLE_CATEGORIES } from '../vocabulary.js';

/** Query-parameter building blocks shared by the filter declarations (and the response schemas that reuse them). */

export const RoleCategorySchema = Type.Enum(ROLE_CATEGORIES, {
  description:
    'Role category. Client-facing: fde, solutions_engineer, csm, tam, sales_engineer, implementation, ' +
    'professional_services. Broad: engineering, product, design, marketing, data, operations, sales, finance, hr, ' +
    'legal, other.',
  examples: ['fde'],
});

export const CompanyCategorySchema = Type.Enum(COMPANY_CATEGORIES, {
  description: 'Company category',
  examples: ['ai_native'],
});

/** An optional boolean query parameter (the query-string coercion turns "true"/"false" into booleans). */
export const QueryBoolean = (description: string) =>
  Type.Optional(Type.Boolean({ description: `${description} (true or false)` }));

/**
 * An optional free-text query parameter of at most `maxLength` characters. `example` (undefined: none) is what
 * the API reference pre-fills: the examples of one operation's parameters are chosen to return results together
 * on the sample catalog (test/http/docs-examples.test.ts), so a parameter that would empty or contradict the
 * others gives its example in its description instead.
 */
export const QueryText = (description: string, example: string | undefined, maxLength = 200) =>
  Type.Optional(
    Type.String({ maxLength, description, ...(example === undefined ? {} : { examples: [example] }) }),
  );

const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_SLUGS = 50;

/** Trimmed text, or undefined when absent or blank (a cleared search box means "no search"). */
export function optionalText(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : undefined;
  return trimmed ? trimmed : undefined;
}

/** One slug, compared case-insensitively; anything else is a 400 naming the parameter. */
export function slugParam(name: string, value: unknown): string | undefined {
  const text = optionalText(value)?.toLowerCase();
  if (text === undefined) return undefined;
  if (!SLUG_RE.test(text)) {
    throw badRequest(
      `Invalid query parameter '${name}': '${text}' is not a slug (lower-case letters, digits and single hyphens)`,
    );
  }
  return text;
}

/** Comma-separated slugs (spaces around commas allowed); blank = no filter. */
export function slugListParam(name: string, value: unknown): string[] | undefined {
  const text = optionalText(value);
  if (text === undefined) return undefined;
  const slugs = text.split(',').map((s) => s.trim().toLowerCase());
  for (const slug of slugs) {
    if (!SLUG_RE.test(slug)) {
      throw badRequest(
        `Invalid query parameter '${name}': ${slug ? `'${slug}' is not a tag slug` : 'empty entry in the list'}; ` +
          'expected comma-separated slugs of lower-case letters, digits and hyphens',
      );
    }
  }
  if (slugs.length > MAX_SLUGS) {
    throw badRequest(`Invalid query parameter '${name}': at most ${MAX_SLUGS} slugs`);
  }
  return [...new Set(slugs)];
}

/** Escapes LIKE wildcards so user input is matched literally (backslash is PostgreSQL's default escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * Comma-separated values, each resolved by `resolve` (undefined: not allowed); blank entries are ignored and a
 * blank list is no filter. A value not allowed is a 400 naming the parameter and saying what is (`allowed`).
 */
export function listParam(
  name: string,
  value: unknown,
  resolve: (entry: string) => string | undefined,
  allowed: string,
): string[] | undefined {
  const entries = (optionalText(value) ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const out = entries.map((e) => {
    const v = resolve(e);
    if (v === undefined)
      throw badRequest(`Invalid query parameter '${name}': '${e}' is not one of ${allowed}`);
    return v;
  });
  return out.length > 0 ? [...new Set(out)] : undefined;
}
