import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createOutboundClient, endpointClientOptions } from '../../src/net/client.js';
import { createEmbedder } from '../../src/search/embedders/index.js';
import { EmbeddingError, OpenAiEmbedder } from '../../src/search/embedders/openai.js';
import { StaticEmbedder, staticModelId } from '../../src/search/embedders/static.js';
import { dot } from '../../src/search/embedders/types.js';
import { cachePath, loadWordVectors } from '../../src/search/embedders/word-vectors.js';
import { type FakeEmbeddings, SEARCH_TEST_CACHE_DIR, startFakeEmbeddings } from './support.js';

describe('word-vector binary cache', () => {
  let dir: string;
  let source: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'frontline-wv-'));
    // A miniature file in the package's format: words in rank order, each vector + [l2norm, wordIndex].
    source = join(dir, 'mini.json');
    const words = ['the', 'engineer', 'customer', 'café'];
    const vectors = Object.fromEntries(words.map((w, i) => [w, [i + 1, -(i + 1), 0.5, 2, 0, i]]));
    writeFileSync(source, JSON.stringify({ precision: 8, dimensions: 4, size: 4, words, vectors }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is built when missing, then read back without rebuilding', () => {
    const cache = join(dir, 'c1');
    const first = loadWordVectors(cache, source);
    expect(first.rebuilt).toBe(true);
    expect(first.vectors.count).toBe(4);
    expect(first.vectors.rank('café')).toBe(3);
    const out = new Float32Array(4);
    first.vectors.read(1, out);
    // Stored unit-length: (2, -2, 0.5, 2) / |.|, quantised to int8 precision.
    const n = Math.hypot(2, -2, 0.5, 2);
    expect(Array.from(out).map((x) => Number(x.toFixed(2)))).toEqual(
      [2 / n, -2 / n, 0.5 / n, 2 / n].map((x) => Number(x.toFixed(2))),
    );
    expect(loadWordVectors(cache, source).rebuilt).toBe(false);
  });

  it('is rebuilt when a byte is corrupted, when truncated, and when the source changes', () => {
    const cache = join(dir, 'c2');
    loadWordVectors(cache, source);
    const file = cachePath(cache);
    const bytes = readFileSync(file);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3]! + 1) % 256;
    writeFileSync(file, bytes);
    expect(loadWordVectors(cache, source).rebuilt).toBe(true);
    writeFileSync(file, readFileSync(file).subarray(0, 50));
    expect(loadWordVectors(cache, source).rebuilt).toBe(true);
    writeFileSync(file, 'not a cache at all');
    expect(loadWordVectors(cache, source).rebuilt).toBe(true);
    expect(loadWordVectors(cache, source).rebuilt).toBe(false);
    writeFileSync(source, `${readFileSync(source, 'utf8')}  `);
    expect(loadWordVectors(cache, source).rebuilt).toBe(true);
  });

  it('resolves words to ranks from the vocabulary bytes, and nothing else', () => {
    // The longest word, 131 bytes in 51 UTF-16 units: lookups of up to 131 units must fit its 3-bytes-a-unit scratch.
    const long = `${'語'.repeat(30)}${'é'.repeat(20)}x`;
    const named = ['the', 'engineer', 'café', 'naïve', 'rocket🚀', '', 'a\ufffdb', long, 'engineers', 'the'];
    // Hundreds of words, so the table has collisions to probe past.
    const filler = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}`);
    const words = [...named, ...filler];
    const vectors = Object.fromEntries(words.map((w, i) => [w, [1, i % 7, -1]]));
    const src = join(dir, 'lookup.json');
    writeFileSync(src, JSON.stringify({ precision: 8, dimensions: 3, size: words.length, words, vectors }));
    const v = loadWordVectors(join(dir, 'c3'), src).vectors;
    expect(v.count).toBe(words.length);
    // A word listed twice keeps its last rank, as the former Map<string, number> did.
    expect(v.rank('the')).toBe(9);
    for (let i = 1; i < words.length; i++) expect(v.rank(words[i]!)).toBe(i);
    expect(v.rank('')).toBe(5);
    const absent =
      'th e engine engineerx thee cafe cafés caf naive naïv naïves rocket rocket🚀🚀 rocket🛸 🚀 w w0x The';
    for (const word of [
      ...absent.split(' '),
      'cafe\u0301', // café decomposed: other bytes, another word
      'a\ud800b', // a lone surrogate encodes as U+FFFD, but is not the word 'a\ufffdb'
      long.slice(0, -1),
      `${long}x`,
      `${long}${'語'.repeat(80)}`, // 131 units, 371 bytes
      'x'.repeat(500),
    ]) {
      expect(v.rank(word), word).toBeUndefined();
    }
    // Lookups after long ones still hold.
    expect(v.rank(long)).toBe(7);
    expect(v.rank('naïve')).toBe(3);
    expect(v.rank('rocket🚀')).toBe(4);
    // Rows past the resident ones are read from the file on use, and read the same.
    const cold = loadWordVectors(join(dir, 'c3'), src, 100);
    expect(cold.rebuilt).toBe(false);
    const [a, b] = [new Float32Array(3), new Float32Array(3)];
    for (let r = 0; r < words.length; r++) {
      v.read(r, a);
      cold.vectors.read(r, b);
      expect([...b], words[r]).toEqual([...a]);
    }
    expect([...a]).not.toEqual([0, 0, 0]);
  });
});

describe('static embedder (wink-sg-100d + lexicon)', () => {
  let e: StaticEmbedder;
  beforeAll(() => {
    e = StaticEmbedder.load(SEARCH_TEST_CACHE_DIR);
  });
  const sim = (a: string, b: string) => dot(e.embedOne(a), e.embedOne(b));

  it('identifies itself by vectors, algorithm and lexicon, and returns unit vectors of 100 dimensions', async () => {
    expect(e.id).toBe(staticModelId());
    expect(e.id).toMatch(/^static:wink-sg-100d:[0-9a-f]{12}$/);
    const [v] = await e.embed(['Forward Deployed Engineer']);
    expect(v).toHaveLength(100);
    expect(dot(v!, v!)).toBeCloseTo(1, 5);
  });

  it('keeps unrelated titles apart and related ones together (the measured weaknesses)', () => {
    const titles = [
      'Senior Software Engineer',
      'Account Executive',
      'Product Designer',
      'Customer Success Manager',
      'Data Scientist',
      'Senior Accountant',
      'Legal Counsel',
      'Engineering Manager',
      'Recruiter',
      'Sales Engineer',
    ];
    let sum = 0;
    let n = 0;
    for (let i = 0; i < titles.length; i++) {
      for (let j = i + 1; j < titles.length; j++) {
        sum += sim(titles[i]!, titles[j]!);
        n++;
      }
    }
    // Plain averaged word vectors score ~0.56 here: head words ("engineer", "manager") dominated.
    expect(sum / n).toBeLessThan(0.2);
    expect(sim('Forward Deployed Engineer', 'FDE')).toBeGreaterThan(0.9);
    expect(sim('Solutions Architect', 'SA')).toBeGreaterThan(0.9);
    expect(sim('Site Reliability Engineer', 'SRE')).toBeGreaterThan(0.9);
    expect(sim('Kubernetes Platform Engineer', 'k8s infrastructure')).toBeGreaterThan(0.5);
    expect(sim('Senior TypeScript Engineer', 'Fullstack JavaScript developer')).toBeGreaterThan(0.5);
    expect(sim('Forward Deployed Engineer', 'engineer embedded with customers')).toBeGreaterThan(
      sim('Data Scientist', 'engineer embedded with customers'),
    );
    // llm means a language model here, not a law degree.
    expect(sim('LLM research', 'language model research')).toBeGreaterThan(sim('LLM research', 'law degree'));
  });

  it('gives unknown words a stable vector, so a shared rare name still matches', () => {
    expect(sim('Databricks', 'Databricks Solutions Engineer')).toBeGreaterThan(0.5);
    expect(sim('Databricks', 'Snowflake Solutions Engineer')).toBeLessThan(0.3);
  });

  // Throughput (target 5,000 jobs/s) is measured by `npm run bench:search`, never asserted in tests.
  it('embeds a bulk batch into unit vectors of the model dimension', async () => {
    const texts = Array.from(
      { length: 2_000 },
      (_, i) => `Senior Solutions Engineer ${i % 50} | Company ${i % 700}`,
    );
    const vectors = await e.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of [vectors[0]!, vectors[1_999]!]) {
      expect(v).toHaveLength(100);
      expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-3);
    }
  });

  it('is what EMBEDDINGS=static selects (loaded lazily from <DATA_DIR>/cache)', async () => {
    const lazy = createEmbedder(parseConfig({ DATA_DIR: join(SEARCH_TEST_CACHE_DIR, '..') }));
    expect(lazy.id).toBe(e.id);
    expect(Array.from((await lazy.embed(['SA']))[0]!)).toEqual(Array.from(e.embedOne('SA')));
  });
});

describe('OpenAI-compatible embedder', () => {
  let fake: FakeEmbeddings;
  beforeAll(async () => {
    fake = await startFakeEmbeddings(8);
  });
  afterAll(() => fake.close());
  const instant = async () => {};
  /** The guarded client createEmbedder gives an operator's endpoint, without waits between requests. */
  const http = (baseUrl: string) =>
    createOutboundClient({ ...endpointClientOptions(parseConfig({}), baseUrl), sleep: instant });

  it('is what EMBEDDINGS=openai selects, through the guarded client to a local endpoint', async () => {
    fake.requests.length = 0;
    const outcomes: string[] = [];
    const config = parseConfig({
      EMBEDDINGS: 'openai',
      EMBEDDINGS_BASE_URL: fake.url,
      EMBEDDINGS_MODEL: 'm',
    });
    const e = createEmbedder(config, undefined, (host, outcome) => outcomes.push(`${host} ${outcome}`));
    expect(await e.embed(['x'])).toHaveLength(1);
    expect(fake.requests[0]!.userAgent).toMatch(/^FrontlineBot\//);
    expect(outcomes).toEqual(['127.0.0.1 ok']);
  });

  it('batches inputs, sends the key, sorts by index, normalises and learns the dimension', async () => {
    fake.requests.length = 0;
    const e = new OpenAiEmbedder({
      http: http(fake.url),
      baseUrl: fake.url,
      model: 'nomic-embed',
      apiKey: 'sk-test',
      maxBatch: 2,
      sleep: instant,
    });
    expect(e.id).toBe('openai:nomic-embed');
    expect(e.dimension).toBeUndefined();
    const out = await e.embed(['alpha', 'beta', 'gamma', '']);
    expect(e.dimension).toBe(8);
    expect(fake.requests.map((r) => r.input)).toEqual([
      ['alpha', 'beta'],
      ['gamma', ' '],
    ]);
    expect(fake.requests[0]!.authorization).toBe('Bearer sk-test');
    expect(fake.requests[0]!.model).toBe('nomic-embed');
    const again = await e.embed(['beta']);
    expect(Array.from(again[0]!)).toEqual(Array.from(out[1]!));
    expect(dot(out[0]!, out[0]!)).toBeCloseTo(1, 5);
    expect(dot(out[0]!, out[1]!)).toBeLessThan(0.99);
  });

  it('accepts a base URL that already ends in /v1', async () => {
    const e = new OpenAiEmbedder({
      http: http(fake.url),
      baseUrl: `${fake.url}/v1/`,
      model: 'm',
      sleep: instant,
    });
    expect(await e.embed(['x'])).toHaveLength(1);
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    fake.requests.length = 0;
    fake.failures.push(429, 503);
    const waits: number[] = [];
    const e = new OpenAiEmbedder({
      http: http(fake.url),
      baseUrl: fake.url,
      model: 'm',
      backoffMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await e.embed(['retry me'])).toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('gives up after maxAttempts, and never retries other 4xx', async () => {
    fake.failures.push(500, 500, 500);
    const e = new OpenAiEmbedder({
      http: http(fake.url),
      baseUrl: fake.url,
      model: 'm',
      maxAttempts: 3,
      sleep: instant,
    });
    await expect(e.embed(['x'])).rejects.toThrow(/500/);
    fake.requests.length = 0;
    fake.failures.push(401);
    await expect(e.embed(['x'])).rejects.toMatchObject({ retryable: false });
    expect(fake.requests).toHaveLength(1);
    const missing = new OpenAiEmbedder({
      http: http(fake.url),
      baseUrl: `${fake.url}/nope`,
      model: 'm',
      sleep: instant,
    });
    await expect(missing.embed(['x'])).rejects.toBeInstanceOf(EmbeddingError);
  });

  it('retries a refused connection and reports it', async () => {
    const e = new OpenAiEmbedder({
      http: http('http://127.0.0.1:1'),
      baseUrl: 'http://127.0.0.1:1',
      model: 'm',
      maxAttempts: 2,
      sleep: instant,
    });
    await expect(e.embed(['x'])).rejects.toThrow(/embeddings request failed/);
  });
});
