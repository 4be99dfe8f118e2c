import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StoredVector } from '../../../search/vectors/vector-index.js';
import { COMPANY_RECORD_KEYS, type CompanyRecord } from '../../fields/company-record.js';
import { type JobRecord, recordAt, recordColumns, recordFingerprint } from '../../fields/job-record.js';

/**
 * The in-process replica saved to a file beside the embedded database, so a restart reads one file instead of
 * pulling every vector through PGlite, which blocks the event loop for seconds and grows a WASM heap that never
 * shrinks (figures in docs/performance.md, "Figures behind the replica"). The snapshot records the change-feed position it is complete up to; the
 * feed (search_seq > seen, tombstones included) then brings it up to date, so an old snapshot is never wrong,
 * only slower to catch up.
 *
 * Layout: 8-byte magic, u32 LE length of a JSON header, u32 LE size of the whole file (a file cut short is
 * refused before anything is read), the header (model, dims, seen, the companies) padded with spaces to a multiple
 * of 8 bytes, the company vector records, then the jobs in chunks of CHUNK_ROWS: u32 LE length of the chunk's JSON
 * (its rows' attributes in columns, padded), u32 LE count of its vector records, the JSON, the records. A record is
 * the f64 LE scale and the int8 components padded to a multiple of 8 (the stored form of
 * src/search/vectors/vector-index.ts, so a restart restores exactly what was saved).
 *
 * Why chunks: one JSON header of every job's attributes would make a start hold the file's bytes, the decoded
 * string and the parsed columns at once, garbage that would set the process's RSS peak, and writing it would build
 * the same at shutdown. A chunk bounds that to its own rows.
 */

/**
 * The layout's version. What a job carries is not part of it: the header's `format` is a digest of the job
 * record's declaration (catalog/fields/job-record.ts), so a snapshot written under another declaration is refused
 * and the index is rebuilt from the database.
 */
const MAGIC = 'FLSNAP08';
const PREFIX = 16;
/** Jobs per chunk. */
const CHUNK_ROWS = 5_000;
const recordBytes = (dims: number) => 8 + Math.ceil(dims / 8) * 8;

/** A job as saved: its declared record, id and stored vector. */
export type SnapshotJob = JobRecord & { id: string; vector: StoredVector | null };

/** A company as saved: its declared record, id and stored vector. */
export type SnapshotCompany = CompanyRecord & { id: string; vector: StoredVector | null };

const COMPANY_KEYS: readonly (keyof SnapshotCompany)[] = ['id', ...COMPANY_RECORD_KEYS, 'vector'];

/** The declaration digest this build writes and accepts. */
export const SNAPSHOT_FORMAT = recordFingerprint(COMPANY_KEYS);

export interface Snapshot {
  model: string;
  dims: number;
  /** Every change with a feed seq at or below this is in the snapshot. */
  seen: number;
  companies: SnapshotCompany[];
  jobs: SnapshotJob[];
}

interface Header {
  format: string;
  model: string;
  dims: number;
  seen: number;
  companies: Omit<SnapshotCompany, 'vector'>[];
  companyHasVector: string;
  jobCount: number;
}

/** One chunk's jobs, in columns: one array per declared record field. */
interface JobColumns {
  ids: string[];
  fields: Record<string, unknown[]>;
  hasVector: string;
}

/** JSON as bytes, padded with spaces (which JSON ignores) so that `before` + its length is a multiple of 8. */
function paddedJson(value: unknown, before: number): Buffer {
  const raw = Buffer.from(JSON.stringify(value), 'utf8');
  return Buffer.concat([raw, Buffer.alloc((8 - ((before + raw.length) % 8)) % 8, ' ')]);
}

/** The records of `vectors`, in order. */
function records(vectors: readonly StoredVector[], dims: number): Buffer {
  const record = recordBytes(dims);
  const out = Buffer.alloc(vectors.length * record);
  vectors.forEach((v, i) => {
    out.writeDoubleLE(v.scale, i * record);
    out.set(new Uint8Array(v.values.buffer, v.values.byteOffset, dims), i * record + 8);
  });
  return out;
}

/** Writes `s` to `path`; `format` is the declaration digest recorded (tests write others). */
export function writeSnapshot(path: string, s: Snapshot, format = SNAPSHOT_FORMAT): void {
  const header: Header = {
    format,
    model: s.model,
    dims: s.dims,
    seen: s.seen,
    companies: s.companies.map(({ vector: _v, ...rest }) => rest),
    companyHasVector: s.companies.map((c) => (c.vector ? '1' : '0')).join(''),
    jobCount: s.jobs.length,
  };
  mkdirSync(dirname(path), { recursive: true });
  // Written beside and renamed into place: a crash mid-write leaves the previous snapshot, never half of one.
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let size = 0;
    const write = (buf: Buffer) => {
      for (let done = 0; done < buf.length; )
        done += writeSync(fd, buf, done, buf.length - done, size + done);
      size += buf.length;
    };
    const json = paddedJson(header, PREFIX);
    write(Buffer.alloc(PREFIX));
    write(json);
    write(
      records(
        s.companies.flatMap((c) => (c.vector ? [c.vector] : [])),
        s.dims,
      ),
    );
    for (let at = 0; at < s.jobs.length; at += CHUNK_ROWS) {
      const rows = s.jobs.slice(at, at + CHUNK_ROWS);
      const columns: JobColumns = {
        ids: rows.map((j) => j.id),
        fields: recordColumns(rows),
        hasVector: rows.map((j) => (j.vector ? '1' : '0')).join(''),
      };
      const vectors = rows.flatMap((j) => (j.vector ? [j.vector] : []));
      const chunk = paddedJson(columns, 8);
      const prefix = Buffer.alloc(8);
      prefix.writeUInt32LE(chunk.length, 0);
      prefix.writeUInt32LE(vectors.length, 4);
      write(prefix);
      write(chunk);
      write(records(vectors, s.dims));
    }
    const prefix = Buffer.alloc(PREFIX);
    prefix.write(MAGIC, 0, 'latin1');
    prefix.writeUInt32LE(json.length, 8);
    prefix.writeUInt32LE(size, 12);
    writeSync(fd, prefix, 0, PREFIX, 0);
  } finally {
    closeSync(fd);
  }
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
   * The jobs in file order, read a chunk at a time: a row's vector values are a view into its chunk's buffer (the
   * index copies them at once). Throws on a short read (a file truncated meanwhile).
   */
  jobs(): AsyncGenerator<SnapshotJob>;
  close(): Promise<void>;
}

/**
 * Opens the snapshot at `path` for this model, or undefined when there is none, it is for another model, or it is
 * unreadable or cut short (then it is deleted). Only the header (companies) is read here; the jobs are streamed a
 * chunk at a time by jobs(), so a start never holds the file's jobs and the index's copy at once.
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
    const prefix = await readExactly(file, 0, PREFIX);
    if (prefix.toString('latin1', 0, 8) !== MAGIC) throw new Error('unknown format');
    const length = prefix.readUInt32LE(8);
    if (prefix.readUInt32LE(12) !== size || PREFIX + length > size) {
      throw new Error('snapshot size does not match its prefix');
    }
    const header = JSON.parse((await readExactly(file, PREFIX, length)).toString('utf8')) as Header;
    if (header.format !== SNAPSHOT_FORMAT) throw new Error('snapshot written under another declaration');
    if (header.model !== model) {
      await file.close();
      return undefined;
    }
    const dims = header.dims;
    const record = recordBytes(dims);
    const companyVectors = count(header.companyHasVector);
    // Company vectors come first and are few: copied out whole.
    const companyRecords = await readExactly(file, PREFIX + length, companyVectors * record);
    let nextCompany = 0;
    const companies = header.companies.map((c, i) => {
      if (header.companyHasVector[i] !== '1') return { ...c, vector: null };
      const vector = storedAt(companyRecords, nextCompany * record, dims);
      nextCompany++;
      return { ...c, vector };
    });
    const jobsAt = PREFIX + length + companyVectors * record;
    return {
      model: header.model,
      dims,
      seen: header.seen,
      companies,
      jobCount: header.jobCount,
      async *jobs() {
        let position = jobsAt;
        let left = header.jobCount;
        while (left > 0) {
          const chunkPrefix = await readExactly(file, position, 8);
          const jsonLength = chunkPrefix.readUInt32LE(0);
          const vectors = chunkPrefix.readUInt32LE(4);
          // Lengths from the file are checked before anything is allocated for them.
          if (position + 8 + jsonLength + vectors * record > size)
            throw new Error('snapshot file ended early');
          const j = JSON.parse(
            (await readExactly(file, position + 8, jsonLength)).toString('utf8'),
          ) as JobColumns;
          const bytes = await readExactly(file, position + 8 + jsonLength, vectors * record);
          position += 8 + jsonLength + vectors * record;
          if (j.ids.length === 0 || j.ids.length > left || count(j.hasVector) !== vectors) {
            throw new Error('snapshot chunk does not match its header');
          }
          left -= j.ids.length;
          let next = 0;
          for (let i = 0; i < j.ids.length; i++) {
            let vector: StoredVector | null = null;
            if (j.hasVector[i] === '1') vector = storedAt(bytes, next++ * record, dims);
            yield { ...recordAt(j.fields, i), id: j.ids[i]!, vector };
          }
        }
        if (position !== size) throw new Error('snapshot has bytes after its last chunk');
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
