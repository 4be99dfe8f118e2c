import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CompanyDetailAttrs } from './catalog-index.js';

/**
 * The in-process search index saved to a file beside the embedded database, so a restart reads one file
 * (~0.2 s at 100k jobs) instead of pulling every vector through PGlite (~3 s of blocked event loop and ~100 MB
 * of WASM heap that never shrinks). The snapshot records the change-feed position it is complete up to; the
 * feed (search_seq > seen, tombstones included) then brings it up to date, so an old snapshot is never wrong,
 * only slower to catch up.
 *
 * Layout: 8-byte magic, u32 LE length of a JSON header, the header (model, dims, seen, the rows' attributes in
 * columns) padded with spaces to a multiple of 4 bytes, then the float32 vectors of the rows that have one,
 * companies first, in header order. The padding lets a reader view the vectors in place instead of copying them.
 */

// 04: jobs and companies carry what their list items show and their list order reads. 05: companies carry
// their detail.
const MAGIC = 'FLSNAP05';

export interface SnapshotJob {
  id: string;
  companyId: string;
  role: string;
  /** The location as written. */
  place: string;
  remote: boolean;
  title: string;
  url: string;
  postedAtUs: number;
  vector: Float32Array | null;
}

export interface SnapshotCompany {
  id: string;
  name: string;
  slug: string;
  category: string;
  active: boolean;
  domain: string;
  oneLiner: string;
  activeJobCount: number;
  nameKey: string;
  tagList: { dimension: string; value: string; slug: string }[];
  detail: CompanyDetailAttrs;
  vector: Float32Array | null;
}

export interface Snapshot {
  model: string;
  dims: number;
  /** Every change with a feed seq at or below this is in the snapshot. */
  seen: number;
  companies: SnapshotCompany[];
  jobs: SnapshotJob[];
}

interface Header {
  model: string;
  dims: number;
  seen: number;
  companies: Omit<SnapshotCompany, 'vector'>[];
  companyHasVector: string;
  jobs: {
    ids: string[];
    companyIds: string[];
    roles: string[];
    places: string[];
    titles: string[];
    urls: string[];
    postedAtUs: number[];
    remote: string;
    hasVector: string;
  };
}

export function writeSnapshot(path: string, s: Snapshot): void {
  const withVectors = [...s.companies, ...s.jobs].filter((r) => r.vector !== null);
  const header: Header = {
    model: s.model,
    dims: s.dims,
    seen: s.seen,
    companies: s.companies.map(({ vector: _v, ...rest }) => rest),
    companyHasVector: s.companies.map((c) => (c.vector ? '1' : '0')).join(''),
    jobs: {
      ids: s.jobs.map((j) => j.id),
      companyIds: s.jobs.map((j) => j.companyId),
      roles: s.jobs.map((j) => j.role),
      places: s.jobs.map((j) => j.place),
      titles: s.jobs.map((j) => j.title),
      urls: s.jobs.map((j) => j.url),
      postedAtUs: s.jobs.map((j) => j.postedAtUs),
      remote: s.jobs.map((j) => (j.remote ? '1' : '0')).join(''),
      hasVector: s.jobs.map((j) => (j.vector ? '1' : '0')).join(''),
    },
  };
  const raw = Buffer.from(JSON.stringify(header), 'utf8');
  // 12 bytes of prefix + the header end on a multiple of 4; JSON ignores trailing spaces.
  const json = Buffer.concat([raw, Buffer.alloc((4 - (raw.length % 4)) % 4, ' ')]);
  const vectors = new Float32Array(withVectors.length * s.dims);
  withVectors.forEach((r, i) => {
    vectors.set(r.vector as Float32Array, i * s.dims);
  });
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 8);
  mkdirSync(dirname(path), { recursive: true });
  // Written beside and renamed into place: a crash mid-write leaves the previous snapshot, never half of one.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([prefix, json, Buffer.from(vectors.buffer)]));
  renameSync(tmp, path);
}

/**
 * The snapshot at `path` for this model, or undefined when there is none or it is unreadable (it is then deleted).
 * The file is read off the event loop: a restart answers requests while it arrives.
 */
export async function readSnapshot(path: string, model: string): Promise<Snapshot | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch {
    return undefined;
  }
  try {
    if (buf.toString('latin1', 0, 8) !== MAGIC) throw new Error('unknown format');
    const length = buf.readUInt32LE(8);
    const header = JSON.parse(buf.toString('utf8', 12, 12 + length)) as Header;
    if (header.model !== model) return undefined;
    // Rows take views into the file's memory (the index copies each into its own storage).
    const at = buf.byteOffset + 12 + length;
    const bytes = buf.length - 12 - length;
    const floats =
      at % 4 === 0
        ? new Float32Array(buf.buffer, at, bytes / 4)
        : new Float32Array(new Uint8Array(buf.subarray(12 + length)).buffer);
    const dims = header.dims;
    let next = 0;
    const take = (has: boolean): Float32Array | null => {
      if (!has) return null;
      const v = floats.subarray(next * dims, (next + 1) * dims);
      next++;
      return v;
    };
    const companies = header.companies.map((c, i) => ({
      ...c,
      vector: take(header.companyHasVector[i] === '1'),
    }));
    const j = header.jobs;
    const jobs = j.ids.map((id, i) => ({
      id,
      companyId: j.companyIds[i]!,
      role: j.roles[i]!,
      place: j.places[i]!,
      remote: j.remote[i] === '1',
      title: j.titles[i]!,
      url: j.urls[i]!,
      postedAtUs: j.postedAtUs[i]!,
      vector: take(j.hasVector[i] === '1'),
    }));
    if (next * dims !== floats.length) throw new Error('vector count does not match the header');
    return { model: header.model, dims, seen: header.seen, companies, jobs };
  } catch {
    rmSync(path, { force: true });
    return undefined;
  }
}
