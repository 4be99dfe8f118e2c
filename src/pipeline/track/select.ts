/**
 * Which registry entries `frontline track` onboards, and with which boards: the operator's filters (--only,
 * --vendor, --category, --limit) over the registry, then the vendor policy (TRACK_VENDORS). Pure: no network, no
 * database, so `--dry-run` shows exactly what a run would do.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { RegistryEntry } from '../../registry/load.js';
import { isProvider } from '../../sources/index.js';
import type { Provider } from '../../sources/types.js';

export interface TrackFilters {
  /** Domains, each of which must be in the registry. */
  only?: string[];
  vendor?: string;
  category?: string;
  limit?: number;
}

/** One company as `track` onboards it: the `--dry-run --json` row. */
export interface TrackEntry {
  name: string;
  domain: string;
  category: RegistryEntry['category'];
  boards: Array<{ vendor: Provider; board: string }>;
}

export interface Selection {
  entries: TrackEntry[];
  /** Entries the filters chose whose every board is of a vendor the policy leaves out. */
  excluded: Array<{ domain: string; reason: string }>;
}

export function selectEntries(
  registry: readonly RegistryEntry[],
  filters: TrackFilters,
  allowed: ReadonlySet<Provider>,
): Selection {
  const only = filters.only?.map((d) => d.trim().toLowerCase()).filter((d) => d.length > 0);
  if (only) {
    const known = new Set(registry.map((e) => e.domain));
    const missing = only.filter((d) => !known.has(d));
    if (missing.length > 0)
      throw new AppError('BAD_REQUEST', `--only: not in the registry: ${missing.join(', ')}`);
  }
  const chosen = registry.filter(
    (e) =>
      (!only || only.includes(e.domain)) &&
      (!filters.vendor || e.boards.some((b) => b.vendor === filters.vendor)) &&
      (!filters.category || e.category === filters.category),
  );
  const entries: TrackEntry[] = [];
  const excluded: Selection['excluded'] = [];
  for (const e of chosen) {
    const boards = e.boards
      .filter((b): b is typeof b & { vendor: Provider } => isProvider(b.vendor) && allowed.has(b.vendor))
      .map((b) => ({ vendor: b.vendor, board: b.board }));
    if (boards.length === 0) {
      const vendors = [...new Set(e.boards.map((b) => b.vendor))].join(', ');
      excluded.push({ domain: e.domain, reason: `vendor not tracked (${vendors}; TRACK_VENDORS)` });
      continue;
    }
    entries.push({ name: e.name, domain: e.domain, category: e.category, boards });
  }
  return { entries: filters.limit === undefined ? entries : entries.slice(0, filters.limit), excluded };
}

/**
 * The id of the onboarding run that tracks an entry: its domain and a digest of what the run does (name,
 * category, boards, vendor policy). Running `track` again over an unchanged entry finds the same run (finished:
 * nothing is done twice; interrupted: it resumes); a changed entry gets a run of its own.
 */
export function trackRunId(entry: TrackEntry, allowed: ReadonlySet<Provider>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([entry.name, entry.category, entry.boards, [...allowed].sort()]))
    .digest('hex')
    .slice(0, 16);
  return `track:${entry.domain}:${digest}`;
}
