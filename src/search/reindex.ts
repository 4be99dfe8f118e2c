import cliProgress from 'cli-progress';
import type { Db } from '../db/port.js';
import { createEmbedder, type EmbedderConfig } from './embedders/index.js';
import type { Progress } from './indexer.js';
import { EmbeddingIndexer } from './indexer.js';

export interface ReindexResult {
  model: string;
  embedded: number;
  ms: number;
}

/**
 * `frontline reindex`: embeds every active job and company whose embedding is missing or was computed by another
 * model or from another text. Resumable by construction: an interrupted run keeps the batches it committed and
 * the next run skips them. A progress bar is drawn on a terminal; otherwise one line per kind is printed.
 */
export async function runReindex(
  db: Db,
  config: EmbedderConfig,
  out: (line: string) => void,
  tty = process.stderr.isTTY === true,
): Promise<ReindexResult> {
  const embedder = createEmbedder(config);
  const indexer = new EmbeddingIndexer(db, embedder, Date.now);
  const started = performance.now();
  out(`embedding model ${embedder.id}`);
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: '{kind} [{bar}] {value}/{total} {percentage}% | {rate}/s | eta {eta}s', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let current: Progress['kind'] | undefined;
  let kindStarted = performance.now();
  const onProgress = (p: Progress) => {
    const rate = Math.round(p.done / Math.max((performance.now() - kindStarted) / 1000, 1e-3));
    if (p.kind !== current) {
      if (current !== undefined) bar?.stop();
      current = p.kind;
      kindStarted = performance.now();
      if (bar) bar.start(p.total, 0, { kind: LABEL[p.kind].padEnd(9), rate: 0 });
      else out(`${LABEL[p.kind]}: ${p.total} to embed`);
      return;
    }
    if (bar) bar.update(p.done, { rate });
    else if (p.done === p.total) out(`${LABEL[p.kind]}: ${p.done} embedded (${rate}/s)`);
  };
  try {
    const embedded = await indexer.catchUp(onProgress);
    return { model: embedder.id, embedded, ms: performance.now() - started };
  } finally {
    bar?.stop();
  }
}

const LABEL: Record<Progress['kind'], string> = { job: 'jobs', company: 'companies' };
