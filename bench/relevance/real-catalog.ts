import { readFileSync } from 'node:fs';
import type { RoleCategory } from '../../src/catalog/types.js';
import type { CatalogFile } from './load.js';

/**
 * The real-title catalog: the 1,100 real job titles of bench/classification (Greenhouse and Ashby boards of six
 * companies, each labelled with its role category by hand), each posted at its own company and again at a second
 * real AI company, 2,200 jobs. Locations come from the title when it names a place ("- London", "NYC"), else
 * from a fixed rotation of the cities these companies hire in. Deterministic: the judged queries
 * (real-queries.json) refer to it.
 */

interface RealTitle {
  title: string;
  category: RoleCategory;
  source: string;
}

const OWN: Record<string, { name: string; domain: string }> = {
  anthropic: { name: 'Anthropic', domain: 'anthropic.com' },
  openai: { name: 'OpenAI', domain: 'openai.com' },
  perplexity: { name: 'Perplexity', domain: 'perplexity.ai' },
  ramp: { name: 'Ramp', domain: 'ramp.com' },
  snowflake: { name: 'Snowflake', domain: 'snowflake.com' },
  stripe: { name: 'Stripe', domain: 'stripe.com' },
};
const SECOND = [
  ['Cohere', 'cohere.com'],
  ['Mistral AI', 'mistral.ai'],
  ['Databricks', 'databricks.com'],
  ['Scale AI', 'scale.com'],
  ['Hugging Face', 'huggingface.co'],
  ['Glean', 'glean.com'],
  ['Sierra', 'sierra.ai'],
  ['Harvey', 'harvey.ai'],
  ['ElevenLabs', 'elevenlabs.io'],
  ['Notion', 'notion.so'],
] as const;
const CITIES = [
  'San Francisco, CA',
  'New York, NY',
  'London, United Kingdom',
  'Seattle, WA',
  'Remote - US',
  'Dublin, Ireland',
  'Tokyo, Japan',
  'Paris, France',
  'Berlin, Germany',
  'Singapore',
  'Toronto, Canada',
  'Austin, TX',
  'Remote - EMEA',
];
const NAMED: [RegExp, string][] = [
  [/london/i, 'London, United Kingdom'],
  [/dublin/i, 'Dublin, Ireland'],
  [/tokyo|japan/i, 'Tokyo, Japan'],
  [/singapore/i, 'Singapore'],
  [/seattle/i, 'Seattle, WA'],
  [/new york|nyc/i, 'New York, NY'],
  [/paris/i, 'Paris, France'],
  [/remote/i, 'Remote'],
];

export function realCatalog(): CatalogFile {
  const read = (f: string) =>
    (
      JSON.parse(readFileSync(new URL(`../classification/${f}`, import.meta.url), 'utf8')) as {
        items: RealTitle[];
      }
    ).items;
  const titles = [...read('real-dev.json'), ...read('real-holdout.json')];
  const companies = new Map<string, CatalogFile['companies'][number]>();
  const company = (name: string, domain: string) => {
    let c = companies.get(name);
    if (!c) {
      c = {
        name,
        domain,
        oneLiner: `${name} builds AI products`,
        category: 'ai_native',
        industry: [],
        jobs: [],
      };
      companies.set(name, c);
    }
    return c;
  };
  for (const [i, t] of titles.entries()) {
    const own = OWN[t.source]!;
    const [name, domain] = SECOND[i % SECOND.length]!;
    const located = NAMED.find(([re]) => re.test(t.title))?.[1];
    for (const [copy, at] of [
      [0, own],
      [1, { name, domain }],
    ] as const) {
      const location = located ?? CITIES[(i * 7 + copy * 5) % CITIES.length]!;
      company(at.name, at.domain).jobs.push({
        title: t.title,
        role: t.category,
        location,
        remote: location.startsWith('Remote'),
        daysAgo: (i * 13 + copy * 29) % 60,
      });
    }
  }
  return { companies: [...companies.values()] };
}
