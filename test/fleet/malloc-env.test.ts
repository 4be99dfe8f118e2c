import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALLOC_ENV, missingMallocEnv } from '../../src/runtime/malloc-env.js';

const root = join(import.meta.dirname, '../..');

describe('glibc malloc settings (src/runtime/malloc-env.ts)', () => {
  it('are set by every production start: npm start and the Docker image', () => {
    const start = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    const dockerEnv = readFileSync(join(root, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('ENV '))
      .join(' ');
    for (const [name, value] of Object.entries(MALLOC_ENV)) {
      expect(start).toContain(`${name}=${value} `);
      expect(dockerEnv).toMatch(new RegExp(`\\b${name}=${value}(\\s|$)`));
    }
  });

  it('names the ones missing, on Linux only', () => {
    expect(missingMallocEnv({}, 'linux')).toEqual(Object.keys(MALLOC_ENV));
    expect(missingMallocEnv({ ...MALLOC_ENV }, 'linux')).toEqual([]);
    expect(missingMallocEnv({ MALLOC_ARENA_MAX: '4' }, 'linux')).toEqual(['MALLOC_MMAP_THRESHOLD_']);
    expect(missingMallocEnv({}, 'darwin')).toEqual([]);
  });
});
