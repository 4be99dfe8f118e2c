import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../src/runtime/heap-growth.ts', import.meta.url));

/**
 * Full collections (V8's --trace-gc lines) in a child process, after limitHeapGrowth(percent), where objects live
 * long enough to reach the old generation and then die there, as a catalog replica's replaced entries do.
 */
function fullCollections(percent: number): number {
  const script = `
    const { limitHeapGrowth } = await import(${JSON.stringify(MODULE)});
    limitHeapGrowth(${percent});
    const keep = new Array(3e5);
    for (let i = 0; i < 3e6; i++) keep[i % 3e5] = { a: i, b: 'x' + i };`;
  const out = execFileSync(
    process.execPath,
    ['--trace-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
    },
  );
  return out.split('\n').filter((line) => line.includes('Mark-Compact')).length;
}

describe('heap growth limit', () => {
  it('makes V8 collect its old generation sooner than its own heuristic does', () => {
    const own = fullCollections(0);
    const limited = fullCollections(20);
    expect(limited).toBeGreaterThan(own);
  });
});
