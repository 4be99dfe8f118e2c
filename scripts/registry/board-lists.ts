/**
 * Readers of the board lists that name boards with their company (ats-companies, stapply, career-ops): each
 * turns one list's files into board facts (facts.ts) and, for stapply's AI list, AI hints.
 */
import { parse as parseYaml } from 'yaml';
import { REGISTRY_VENDORS, type RegistryVendor } from '../../src/registry/schema.js';
import { boardFromUrl } from './boards.js';
import { type Facts, key, noFacts } from './facts.js';
import { csvRecords, domainInName } from './parse.js';

/**
 * A name that only re-spells the board's identifier says nothing the identifier does not: lower case (`acme` for
 * `acme`), or, on Gem, the identifier's parts with capitals added. The list's Gem names are made that way (254 of
 * its 263 hyphenated Gem identifiers, `Atla Ai Com` for `atla-ai-com`); other vendors give their boards' names.
 */
function spellsIdentifier(name: string, id: { vendor: RegistryVendor; board: string }): boolean {
  if (name === name.toLowerCase()) return key(name) === key(id.board);
  const parts = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return id.vendor === 'gem' && parts.join('-').toLowerCase() === id.board.toLowerCase();
}

/** name,slug,url CSVs, one per vendor: boards with display names; a name that is a .ai domain is an AI company. */
export function readAtsCompanies(files: ReadonlyMap<string, string>): Facts {
  const facts = noFacts();
  for (const text of files.values()) {
    for (const r of csvRecords(text)) {
      const id = boardFromUrl(r.url ?? '');
      const name = (r.name ?? '').trim();
      if (!id || !name) continue;
      facts.boards.push({
        source: 'ats-companies',
        ...id,
        name: spellsIdentifier(name, id) ? null : name,
      });
      const domain = domainInName(name);
      if (domain?.endsWith('.ai'))
        facts.companies.push({ source: 'ats-companies', name, domain, category: 'ai_native' });
    }
  }
  return facts;
}

/** stapply's per-vendor CSVs (names there are the identifier re-cased, so no name is taken) and its AI list. */
export function readStapply(files: ReadonlyMap<string, string>): Facts {
  const facts = noFacts();
  for (const [path, text] of files) {
    if (path === 'ai_companies.json') {
      const map = JSON.parse(text) as Record<string, string | null>;
      for (const [k, v] of Object.entries(map)) {
        const vendor =
          v && (REGISTRY_VENDORS as readonly string[]).includes(v) ? (v as RegistryVendor) : null;
        facts.hints.push({ source: 'stapply', key: key(k), vendor });
      }
      continue;
    }
    for (const r of csvRecords(text)) {
      const id = boardFromUrl(r.url ?? '');
      if (id) facts.boards.push({ source: 'stapply', ...id, name: null });
    }
  }
  return facts;
}

/** career-ops' example portals: hand-picked companies for solutions and forward-deployed roles, with boards. */
export function readCareerOps(files: ReadonlyMap<string, string>): Facts {
  const facts = noFacts();
  const doc = parseYaml(files.get('templates/portals.example.yml') ?? '') as {
    tracked_companies?: { name?: string; careers_url?: string; api?: string }[];
  };
  for (const c of doc.tracked_companies ?? []) {
    const id = boardFromUrl(c.api ?? '') ?? boardFromUrl(c.careers_url ?? '');
    if (id && c.name) facts.boards.push({ source: 'career-ops', ...id, name: c.name.trim() });
  }
  return facts;
}
