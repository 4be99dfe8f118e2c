import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors, loadWordVectorsAsync } from '../../src/search/embedders/word-vectors.js';

/**
 * The package's 300 MB JSON is read member by member (src/search/embedders/word-vectors-source.ts), not parsed
 * whole: what it yields must be what JSON.parse of the whole file holds, whatever the words contain and however
 * the file is laid out, and an async build must let the event loop run between slices.
 */
describe('word-vector source, read member by member', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'frontline-wvs-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Component d of a word's stored vector, as JSON.parse of the whole file gives it: unit length, int8 steps. */
  const expected = (v: number[], dims: number) => {
    const norm = Math.hypot(...v.slice(0, dims));
    return v.slice(0, dims).map((x) => x / norm);
  };

  it('reads words holding quotes, backslashes, brackets, commas and non-ASCII, in any layout', () => {
    const tricky = ['"', '\\', ']', '}', '[{', ',', ':', 'café', '語', 'a"b\\c', '\u2028', 'emoji🚀', ' '];
    const filler = Array.from({ length: 2_500 }, (_, i) => `w${i}`);
    const words = [...tricky, ...filler, 'no-vector', 'line\nbreak'];
    const vectors: Record<string, number[]> = {};
    words.forEach((w, i) => {
      if (w !== 'no-vector') vectors[w] = [1 + (i % 5), -0.5 * (i % 3), 2.5e-3, -(i % 7), 1e2, i];
    });
    // Keys the reader skips, around the ones it reads, nested and pretty-printed.
    const doc = {
      precision: 8,
      nested: { words: ['decoy'], vectors: { decoy: [[1]] } },
      dimensions: 4,
      words,
      vectors,
      unkVector: [0, 0, 0, 0, 0, -1],
    };
    const source = join(dir, 'tricky.json');
    writeFileSync(source, JSON.stringify(doc, null, 1));
    const { vectors: v } = loadWordVectors(join(dir, 'tricky-cache'), source);
    // Without a vector or with a newline, a word is left out; the others keep their order.
    const kept = words.filter((w) => w !== 'no-vector' && !w.includes('\n'));
    expect(v.count).toBe(kept.length);
    const out = new Float32Array(4);
    kept.forEach((word, rank) => {
      expect(v.rank(word), JSON.stringify(word)).toBe(rank);
      v.read(rank, out);
      const want = expected(vectors[word]!, 4);
      // int8 with a per-word scale: each component within half a step of the largest one's 1/127.
      const step = Math.max(...want.map(Math.abs)) / 127;
      for (let d = 0; d < 4; d++) expect(Math.abs(out[d]! - want[d]!)).toBeLessThanOrEqual(step / 2 + 1e-6);
    });
    expect(v.rank('no-vector')).toBeUndefined();
    expect(v.rank('decoy')).toBeUndefined();
  });

  it('keeps a repeated word at its last rank and a repeated vector key at its last value, as JSON.parse does', () => {
    const source = join(dir, 'repeats.json');
    // Written by hand: JSON.stringify cannot repeat a key.
    writeFileSync(
      source,
      '{"dimensions":2,"words":["a","b","a"],"vectors":{"a":[1,0],"b":[0,1],"a":[0,-3]}}',
    );
    const { vectors: v } = loadWordVectors(join(dir, 'repeats-cache'), source);
    expect(v.count).toBe(3);
    expect(v.rank('a')).toBe(2);
    const out = new Float32Array(2);
    v.read(0, out);
    expect([...out]).toEqual([0, -1]);
    v.read(2, out);
    expect([...out]).toEqual([0, -1]);
  });

  it('names the byte where the file stops making sense', () => {
    const source = join(dir, 'broken.json');
    writeFileSync(source, '{"dimensions":2,"words":["a"],"vectors":{"a":[1,0]');
    expect(() => loadWordVectors(join(dir, 'broken-cache'), source)).toThrow(
      /at byte \d+, found the end|ends inside a value at byte/,
    );
    writeFileSync(source, '{"vectors":{"a":[1,0]},"dimensions":2,"words":["a"]}');
    expect(() => loadWordVectors(join(dir, 'broken-cache'), source)).toThrow(/"vectors" comes before/);
  });

  it('builds asynchronously in slices, the event loop turning between them, and tells the listener first', async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `word${i}`);
    const vectors = Object.fromEntries(words.map((w, i) => [w, [1, i % 9, -2, 0.25]]));
    const source = join(dir, 'async.json');
    writeFileSync(source, JSON.stringify({ dimensions: 4, words, vectors }));
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const told: string[] = [];
    const built = await loadWordVectorsAsync(join(dir, 'async-cache'), {
      source,
      onBuild: (path) => told.push(`build ${path} after ${turns} turns`),
    });
    ticking = false;
    expect(built.rebuilt).toBe(true);
    expect(told).toEqual([`build ${built.path} after 0 turns`]);
    // 5,000 vectors come in slices of 1,000: the loop ran between each and the next.
    expect(turns).toBeGreaterThanOrEqual(5);
    const again = await loadWordVectorsAsync(join(dir, 'async-cache'), {
      source,
      onBuild: () => told.push('x'),
    });
    expect(again.rebuilt).toBe(false);
    expect(told).toHaveLength(1);
    expect(again.vectors.rank('word4999')).toBe(4_999);
  });
});
