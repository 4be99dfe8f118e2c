/**
 * Providers of AI models as two catalogs of model providers describe them. A provider is an AI company: the
 * catalogs list those that serve AI models through an API. Its name must spell its domain's word, so a cloud or
 * data company that resells models under a product name gives no company.
 *
 * models.dev: one `providers/<id>/provider.toml` each, with the provider's
 * `name`, the URL of its model documentation (`doc`) and of its model API (`api`). A provider is taken as an AI
 * company, with its domain, only when its API and its documentation sit on one registrable domain and its name
 * spells that domain's word: a cloud or data company that resells models ("Cloudflare Workers AI" on
 * `cloudflare.com`, "Vultr" on `vultrinference.com`) or names no API of its own (`${HOST}`) gives no company.
 */
import { parse as parseDomain } from 'tldts';
import { type Facts, key, noFacts } from './facts.js';
import { registrableDomain } from './parse.js';
import { word } from './words.js';

/** Endings a provider's name adds to its domain's word ("Fireworks AI", "Inception" on `inceptionlabs.ai`). */
const ENDINGS = ['', 'ai', 'labs', 'cloud'];

/** The top-level string keys of a TOML document (those above its first table). */
export function topLevelStrings(toml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of toml.split('\n')) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(line);
    if (m?.[1] && m[2] !== undefined && !out.has(m[1])) out.set(m[1], m[2]);
  }
  return out;
}

/** Whether the name is the domain's word, with or without one ending on either side. */
export function spellsWord(name: string, domain: string): boolean {
  const w = word(domain);
  const n = key(name);
  return w !== '' && ENDINGS.some((e) => n === w + e || n + e === w);
}

function hostDomain(url: string | undefined): string | null {
  if (!url || url.includes('${')) return null;
  return registrableDomain(url);
}

export function modelsDevProviders(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const [path, text] of files) {
      if (!path.endsWith('/provider.toml')) continue;
      const fields = topLevelStrings(text);
      const name = fields.get('name')?.trim();
      const doc = hostDomain(fields.get('doc'));
      const api = hostDomain(fields.get('api'));
      if (!name || !doc || doc !== api) continue;
      if (!spellsWord(name, doc)) continue;
      facts.companies.push({ source, name, domain: doc, category: 'ai_native' });
    }
    return facts;
  };
}

/** A Markdown link: its text without emphasis, and its URL. */
const LINK = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;

/**
 * The AI SDK's provider pages (one MDX page per provider, `title:` in its front matter): the provider's website is
 * the first link whose text is the page's title, when that link goes to a home page (`https://acme.ai/`, not
 * `https://ai.acme.dev/` or a code host) and the title spells the domain's word.
 */
export function aiSdkProviders(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const [path, text] of files) {
      if (!path.endsWith('.mdx')) continue;
      const title = /^title:\s*['"]?([^'"\n]+?)['"]?\s*$/m.exec(text)?.[1]?.trim();
      if (!title) continue;
      for (const m of text.matchAll(LINK)) {
        const label = (m[1] ?? '').replace(/[*_`]/g, '').trim();
        const url = m[2] ?? '';
        if (bare(key(label)) !== bare(key(title))) continue;
        const domain = registrableDomain(url);
        const host = parseDomain(url).hostname ?? '';
        if (domain && (host === domain || host === `www.${domain}`) && spellsWord(title, domain))
          facts.companies.push({ source, name: title, domain, category: 'ai_native' });
        break;
      }
    }
    return facts;
  };
}

/** A name without an `AI` ending ("Fal AI" is "Fal"). */
function bare(k: string): string {
  return k.endsWith('ai') && k.length > 4 ? k.slice(0, -2) : k;
}

/**
 * Pipecat's pages of the AI services a voice agent can use (speech-to-text, text-to-speech, LLMs, avatars): each
 * page's `sidebarTitle` names the service's maker, and the first link to a domain whose word that name spells is
 * the maker's site ("Rime" and `docs.rime.ai`). A page that links no such domain gives no company.
 */
export function pipecatServices(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const [path, text] of files) {
      if (!path.endsWith('.mdx')) continue;
      const name = /^sidebarTitle:\s*['"]?([^'"\n]+?)['"]?\s*$/m.exec(text)?.[1]?.trim();
      if (!name) continue;
      const domain = [...text.matchAll(LINK)]
        .map((m) => registrableDomain(m[2] ?? ''))
        .find((d): d is string => d !== null && spellsWord(name, d));
      if (domain) facts.companies.push({ source, name, domain, category: 'ai_native' });
    }
    return facts;
  };
}

/**
 * LiveKit Agents' plugins, one folder each with a README whose heading names the maker ("# Rime plugin for
 * LiveKit Agents"): the first link to a domain that name spells is the maker's site.
 */
export function livekitPlugins(source: string) {
  return (files: ReadonlyMap<string, string>): Facts => {
    const facts = noFacts();
    for (const [path, text] of files) {
      if (!path.endsWith('/README.md')) continue;
      const heading = /^#\s+(.+?)\s+(?:TTS\s+|STT\s+)?plugin for LiveKit Agents\s*$/im
        .exec(text)?.[1]
        ?.trim();
      if (!heading) continue;
      const domain = [...text.matchAll(LINK)]
        .map((m) => registrableDomain(m[2] ?? ''))
        .find((d): d is string => d !== null && spellsWord(heading, d));
      if (domain) facts.companies.push({ source, name: heading, domain, category: 'ai_native' });
    }
    return facts;
  };
}
