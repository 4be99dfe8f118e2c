import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDataDir, serverUrl } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';

/**
 * The first start on a data directory builds the word-vector cache from the package's 300 MB JSON (seconds). The
 * log says so and what waits for it, and catalog reads are answered while it runs: the build gives the event loop
 * a turn between slices (src/search/embedders/word-vectors.ts), where JSON.parse of the whole file held it ~7 s.
 * No shared cache here: this data directory builds its own.
 */
describe.skipIf(serverUrl())('the first start on a new data directory', () => {
  let dataDir: string | undefined;
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const waitFor = async (text: string) => {
    while (!service!.output().includes(text)) {
      if (service!.child.exitCode !== null) throw new Error(`exited:\n${service!.output().slice(-4000)}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  };

  it('answers catalog reads while the word-vector cache builds, and says what waits for it', async () => {
    dataDir = await freshDataDir();
    service = await startService({ DATA_DIR: dataDir, SAMPLE_DATA: '1' });
    await waitFor('building the word-vector cache');
    expect(service.output()).toMatch(/semantic search and new embeddings wait for it/);
    const jobs = await fetch(`${service.url}/api/v1/jobs?limit=3`);
    const stats = await fetch(`${service.url}/api/v1/stats`);
    // Answered before the build finished: the build's end is logged only after these answers.
    const answeredDuringBuild = !service.output().includes('word-vector cache built');
    expect(jobs.status).toBe(200);
    expect(((await jobs.json()) as { data: unknown[] }).data).toHaveLength(3);
    expect(stats.status).toBe(200);
    expect(answeredDuringBuild).toBe(true);
    await waitFor('word-vector cache built');
    // Then search has its vectors: a semantic query finds sample postings.
    const search = await fetch(`${service.url}/api/v1/jobs?search=engineer%20embedded%20with%20customers`);
    expect(((await search.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  }, 600_000);
});
