import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CompanyDetailAttrs } from './catalog-index.js';
import type { StoredVector } from './vector-index.js';

/**
 * The in-process search index saved to a file beside the embedded database, so a restart reads one file
 * (~0.2 s at 100k jobs) instead of pulling every vector through PGlite (~3 s of blocked event loop and ~100 MB
 * of WASM heap that never shrinks). The snapshot records the change-feed position it is complete up to; the
 * feed (search_seq > seen, tombstones included) then brings it up to date, so an old snapshot is never wrong,
 * only slower to catch up.
 *
 * Layout: 8-byte magic, u32 LE length of a JSON header, the header (model, dims, seen, the rows' attributes in
 * columns) padded with spaces to a multiple of 8 bytes, then one record per row that has a vector, companies
 * first, in header order: the f64 LE scale and the int8 components padded to a multiple of 8 (the index's
 * stored form, vector-index.ts, so a restart restores exactly what was saved; ~11 MB at 100k × 100).
 */

// 04: jobs and companies carry what their list items show and their list order reads. 05: companies carry
// their detail. 06: vectors in the index's int8 form.
const MAGIC = 'FLSNAP06';
const recordBytes = (dims: number) => 8 + Math.ceil(dims / 8) * 8;

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
  vector: StoredVector | null;
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
  vector: StoredVector | null;
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
  // 12 bytes of prefix + the header end on a multiple of 8; JSON ignores trailing spaces.
  const json = Buffer.concat([raw, Buffer.alloc((8 - ((12 + raw.length) % 8)) % 8, ' ')]);
  const record = recordBytes(s.dims);
  const vectors = Buffer.alloc(withVectors.length * record);
  withVectors.forEach((r, i) => {
    const v = r.vector as StoredVector;
    vectors.writeDoubleLE(v.scale, i * record);
    vectors.set(new Uint8Array(v.values.buffer, v.values.byteOffset, s.dims), i * record + 8);
  });
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 8);
  mkdirSync(dirname(path), { recursive: true });
  // Written beside and renamed into place: a crash mid-write leaves the previous snapshot, never half of one.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([prefix, json, vectors]));
  renameSync(tmp, path);
}

/** A snapshot being read: the header in memory, the job rows streamed from the file (see jobs()). */
export interface SnapshotReader {
  model: string;
  dims: number;
  seen: number;
  companies: SnapshotCompany[];
  jobCount: number;
  /**
   * The jobs in file order, read a chunk at a time: a row's vector values are a view into a reused buffer, valid until
   * the next row is taken (the index copies it at once). Throws on a short read (a file truncated meanwhile).
   */
  jobs(): AsyncGenerator<SnapshotJob>;
  close(): Promise<void>;
}

/** Rows with a vector per file read (~0.5 MB at 100 dimensions). */
const READ_ROWS = 5_000;

/**
 * Opens the snapshot at `path` for this model, or undefined when there is none, it is for another model, or it is
 * unreadable (then it is deleted). Only the header is read here; the vectors (~11 MB at 100k jobs) are streamed
 * by jobs(), so a start never holds the file and the index's copy at once.
 */
export async function readSnapshot(path: string, model: string): Promise<SnapshotReader | undefined> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await file.stat();
    const prefix = await readExactly(file, 0, 12);
    if (prefix.toString('latin1', 0, 8) !== MAGIC) throw new Error('unknown format');
    const length = prefix.readUInt32LE(8);
    const header = JSON.parse((await readExactly(file, 12, length)).toString('utf8')) as Header;
    if (header.model !== model) {
      await file.close();
      return undefined;
    }
    const dims = header.dims;
    const record = recordBytes(dims);
    const j = header.jobs;
    const companyVectors = count(header.companyHasVector);
    const jobVectors = count(j.hasVector);
    if (size !== 12 + length + (companyVectors + jobVectors) * record) {
      throw new Error('vector count does not match the header');
    }
    // Company vectors come first and are few: copied out whole.
    const companyRecords = await readExactly(file, 12 + length, companyVectors * record);
    let nextCompany = 0;
    const companies = header.companies.map((c, i) => {
      if (header.companyHasVector[i] !== '1') return { ...c, vector: null };
      const vector = storedAt(companyRecords, nextCompany * record, dims);
      nextCompany++;
      return { ...c, vector };
    });
    const jobsAt = 12 + length + companyVectors * record;
    return {
      model: header.model,
      dims,
      seen: header.seen,
      companies,
      jobCount: j.ids.length,
      async *jobs() {
        const bytes = Buffer.alloc(READ_ROWS * record);
        let inChunk = 0;
        let loaded = 0;
        let read = 0;
        for (let i = 0; i < j.ids.length; i++) {
          let vector: StoredVector | null = null;
          if (j.hasVector[i] === '1') {
            if (inChunk === loaded) {
              const rows = Math.min(READ_ROWS, jobVectors - read);
              await readInto(file, bytes, jobsAt + read * record, rows * record);
              read += rows;
              loaded = rows;
              inChunk = 0;
            }
            vector = storedAt(bytes, inChunk * record, dims);
            inChunk++;
          }
          yield {
            id: j.ids[i]!,
            companyId: j.companyIds[i]!,
            role: j.roles[i]!,
            place: j.places[i]!,
            remote: j.remote[i] === '1',
            title: j.titles[i]!,
            url: j.urls[i]!,
            postedAtUs: j.postedAtUs[i]!,
            vector,
          };
        }
      },
      close: () => file.close(),
    };
  } catch {
    await file.close().catch(() => {});
    rmSync(path, { force: true });
    return undefined;
  }
}

/** Reads every job of a snapshot into memory (tests, tools): vectors copied out of the reader's buffer. */
export async function readWholeSnapshot(path: string, model: string): Promise<Snapshot | undefined> {
  const reader = await readSnapshot(path, model);
  if (!reader) return undefined;
  try {
    const jobs: SnapshotJob[] = [];
    for await (const job of reader.jobs()) {
      const vector = job.vector && { scale: job.vector.scale, values: job.vector.values.slice() };
      jobs.push({ ...job, vector });
    }
    const { model: m, dims, seen, companies } = reader;
    return { model: m, dims, seen, companies, jobs };
  } finally {
    await reader.close();
  }
}

const count = (flags: string): number => {
  let n = 0;
  for (let i = 0; i < flags.length; i++) if (flags.charCodeAt(i) === 49) n++;
  return n;
};

/** The record at `offset`: its values a view into buf. */
const storedAt = (buf: Buffer, offset: number, dims: number): StoredVector => ({
  scale: buf.readDoubleLE(offset),
  values: new Int8Array(buf.buffer, buf.byteOffset + offset + 8, dims),
});

async function readExactly(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  await readInto(file, buf, position, length);
  return buf;
}

async function readInto(file: FileHandle, buf: Buffer, position: number, length: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw new Error('snapshot file ended early');
    done += bytesRead;
  }
}
