/**
 * Category and tags from page text by the keyword lexicon in lexicon.json. Deterministic: the same pages give
 * the same tags, so re-enrichment only changes what the site changed.
 */

import { slugify } from '../../catalog/tags.js';
import { type CompanyCategory, TAG_DIMENSIONS, type TagDimension } from '../../catalog/types.js';
import lexicon from './lexicon.json' with { type: 'json' };
import type { CompanyTag } from './types.js';

interface LexValue {
  value: string;
  strong: string[];
  keywords: string[];
}
interface LexDimension {
  minScore: number;
  max: number;
  values: LexValue[];
}

/** Headline text (title, meta, headings) counts this many times more than body text. */
const HEADLINE_WEIGHT = 3;
const STRONG_WEIGHT = 3;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const phraseCache = new Map<string, RegExp>();
function countPhrase(text: string, phrase: string): number {
  let re = phraseCache.get(phrase);
  if (!re) {
    // Word boundaries that also work for phrases ending in punctuation ("nyse:").
    re = new RegExp(`(?<![a-z0-9])${escapeRegex(phrase.toLowerCase())}(?![a-z0-9])`, 'g');
    phraseCache.set(phrase, re);
  }
  return text.match(re)?.length ?? 0;
}

export interface ScoringText {
  headline: string;
  body: string;
}

function score(text: ScoringText, strong: string[], keywords: string[]): number {
  const h = text.headline.toLowerCase();
  const b = text.body.toLowerCase();
  let total = 0;
  for (const p of strong)
    total +=
      STRONG_WEIGHT * (Math.min(countPhrase(b, p), 3) + HEADLINE_WEIGHT * Math.min(countPhrase(h, p), 1));
  for (const p of keywords)
    total += Math.min(countPhrase(b, p), 3) + HEADLINE_WEIGHT * Math.min(countPhrase(h, p), 1);
  return total;
}

const tag = (dimension: TagDimension, value: string): CompanyTag => ({
  dimension,
  value,
  slug: slugify(value),
});

const AMOUNT = /\$\s?(\d+(?:\.\d+)?)\s?(billion|bn|b|million|mm|m)\b/gi;
const FUNDING_CONTEXT = /\b(raised|raise|funding|financing|series [a-z]|round|backed|investment)\b/i;

/** The largest funding amount stated near funding words, in USD; null when none. */
export function statedFundingUsd(body: string): number | null {
  let best: number | null = null;
  for (const m of body.matchAll(AMOUNT)) {
    const around = body.slice(Math.max(0, (m.index ?? 0) - 80), (m.index ?? 0) + m[0].length + 80);
    if (!FUNDING_CONTEXT.test(around) || /valuation|valued at|revenue|arr\b/i.test(around)) continue;
    const unit = (m[2] ?? '').toLowerCase();
    const usd = Number(m[1]) * (unit.startsWith('b') ? 1e9 : 1e6);
    best = Math.max(best ?? 0, usd);
  }
  return best;
}

export function deriveTags(text: ScoringText): CompanyTag[] {
  const dims = lexicon.dimensions as Record<string, LexDimension>;
  const out: CompanyTag[] = [];
  for (const dimension of TAG_DIMENSIONS) {
    const dim = dims[dimension];
    if (!dim) continue;
    const ranked = dim.values
      .map((v) => ({ value: v.value, s: score(text, v.strong, v.keywords) }))
      .filter((r) => r.s >= dim.minScore)
      .sort((a, b) => b.s - a.s);
    for (const r of ranked.slice(0, dim.max)) out.push(tag(dimension, r.value));
  }
  const isPublic = out.some((t) => t.dimension === 'stage' && t.value === 'Public');
  if (isPublic) out.push(tag('funding_tier', lexicon.publicFundingTier));
  else {
    const usd = statedFundingUsd(text.body);
    const tier =
      usd === null ? undefined : lexicon.fundingTiers.find((t) => t.belowUsd === null || usd < t.belowUsd);
    if (tier) out.push(tag('funding_tier', tier.value));
  }
  return out;
}

export function deriveCategory(text: ScoringText, tags: CompanyTag[]): CompanyCategory | null {
  const c = lexicon.category;
  if (text.body.length + text.headline.length < c.minTextChars) return null;
  const ai = score(text, [], c.aiKeywords);
  const enterprise = score(text, [], c.enterpriseKeywords);
  const software = score(text, [], c.softwareKeywords);
  const aiRole = tags.find((t) => t.dimension === 'ai_role')?.value;
  const isPublic = tags.some((t) => t.dimension === 'stage' && t.value === 'Public');
  if (isPublic && software > 0) return 'public_saas';
  if (aiRole && ['Foundation Models', 'AI Infrastructure', 'Data for AI'].includes(aiRole))
    return 'ai_native';
  if (ai >= c.minAiScore && enterprise >= c.minEnterpriseScore) return 'enterprise_ai';
  if (ai >= c.minAiScore || aiRole === 'AI Applications') return 'ai_native';
  return 'other';
}
