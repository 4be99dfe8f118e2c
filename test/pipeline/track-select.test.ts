import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startChild } from './support.js';

/**
 * `frontline track --dry-run` as a real process over a made-up registry (test/fixtures/registry/): the selection as
 * one JSON array, the vendor policy (SmartRecruiters off by default), the filters, and that neither the database
 * nor the network is touched (no data directory appears; no host is mapped, so any request would fail).
 */

const REGISTRY = fileURLToPath(new URL('../fixtures/registry/companies.yaml', import.meta.url));

async function dryRun(args: string[], env: Record<string, string> = {}) {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'frontline-track-dry-')), 'data');
  const child = await startChild(
    { DATA_DIR: dataDir, ...env },
    { command: 'track', args: ['--dry-run', '--registry', REGISTRY, ...args] },
  );
  const code = await child.exited;
  expect(existsSync(dataDir)).toBe(false);
  return { code, out: child.output() };
}

describe('frontline track --dry-run', () => {
  it('prints the selection as one JSON array; SmartRecruiters boards are left out by default', async () => {
    const { code, out } = await dryRun(['--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([
      {
        name: 'Alpha Labs',
        domain: 'alpha.example',
        category: 'ai_native',
        boards: [{ vendor: 'greenhouse', board: 'alphalabs' }],
      },
      {
        name: 'Gamma',
        domain: 'gamma.example',
        category: 'ai_native',
        boards: [{ vendor: 'gem', board: 'gamma' }],
      },
      {
        name: 'Delta Cloud',
        domain: 'zdelta.example',
        category: 'public_saas',
        boards: [{ vendor: 'rippling', board: 'delta-cloud' }],
      },
    ]);
  });

  it('TRACK_VENDORS=all keeps every vendor; --vendor, --category and --limit narrow the selection', async () => {
    const all = JSON.parse(
      (await dryRun(['--json', '--vendor', 'smartrecruiters'], { TRACK_VENDORS: 'all' })).out,
    );
    expect(all.map((e: { domain: string }) => e.domain)).toEqual(['alpha.example', 'beta.example']);
    expect(all[0].boards).toHaveLength(2);
    const ai = JSON.parse((await dryRun(['--json', '--category', 'ai_native', '--limit', '1'])).out);
    expect(ai.map((e: { domain: string }) => e.domain)).toEqual(['alpha.example']);
    const only = JSON.parse((await dryRun(['--json', '--only', 'zdelta.example,gamma.example'])).out);
    expect(only.map((e: { domain: string }) => e.domain)).toEqual(['gamma.example', 'zdelta.example']);
  });

  it('names a domain not in the registry, an unknown vendor and a bad TRACK_VENDORS, and fails', async () => {
    const missing = await dryRun(['--only', 'nosuch.example']);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('not in the registry: nosuch.example');
    const vendor = await dryRun(['--vendor', 'taleo']);
    expect(vendor.code).not.toBe(0);
    expect(vendor.out).toContain("option '--vendor <vendor>' argument 'taleo' is invalid");
    const policy = await dryRun([], { TRACK_VENDORS: 'greenhouse,taleo' });
    expect(policy.code).toBe(2);
    expect(policy.out).toContain('TRACK_VENDORS must be');
  });
});
