import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDirWithVectors, serverUrl } from '../support/db.js';
import { type ServiceProcess, startService } from '../support/fleet.js';
import { serviceArgs } from '../support/service-entry.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `frontline <args>` as a real process; resolves with its exit code and output, whatever the code. */
async function cli(args: string[], env: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...serviceArgs(), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const STACK_LINE = /^\s+at /m;

/**
 * The embedded database is open in one process at a time. A CLI command run beside a server on the same data
 * directory says so in one sentence (who holds it, what to do) and exits 1, never with a stack. Token names are
 * unique among active tokens, and a revoke that matches several tokens revokes none and lists them.
 */
describe.skipIf(serverUrl())('CLI commands on the embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: ServiceProcess | undefined;

  beforeAll(async () => {
    dataDir = await freshDataDirWithVectors();
    env = { DATA_DIR: dataDir };
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses every database command while a server holds it, naming the process and the ways out', async () => {
    server = await startService(env);
    const pid = server.child.pid;
    for (const args of [
      ['tokens', 'create', '--name', 'ops'],
      ['tokens', 'list'],
      ['tokens', 'revoke', 'ops'],
      ['migrate'],
      ['reindex'],
    ]) {
      const r = await cli(args, env);
      const label = args.join(' ');
      expect(r.code, label).toBe(1);
      expect(r.stderr, label).toContain(
        `frontline ${args.slice(0, 2).join(' ')}: the embedded database in ${dataDir} is in use by process ${pid}`,
      );
      expect(r.stderr, label).toMatch(/stop that process first.*DATABASE_URL to a PostgreSQL server/);
      if (args[0] === 'tokens') expect(r.stderr, label).toContain('API_TOKENS');
      expect(r.stderr, label).not.toMatch(STACK_LINE);
      expect(r.stderr.trim().split('\n'), label).toHaveLength(1);
    }
    await server.stop();
    expect(await server.exited).toBe(0);
  }, 300_000);

  it('keeps active token names unique and revokes only an unambiguous match', async () => {
    const first = await cli(['tokens', 'create', '--name', 'ops'], env);
    expect(first.code, first.stderr).toBe(0);
    const prefix = /prefix (\S+)\)/.exec(first.stdout)?.[1];
    expect(prefix).toMatch(/^fl_/);
    const again = await cli(['tokens', 'create', '--name', 'ops'], env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      'frontline tokens create: an active token is already named "ops": choose another name, or revoke that token first',
    );
    // A second token named like the first one's display prefix: "revoke <prefix>" now matches both.
    const twin = await cli(['tokens', 'create', '--name', prefix!], env);
    expect(twin.code, twin.stderr).toBe(0);
    const ambiguous = await cli(['tokens', 'revoke', prefix!], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(
      `"${prefix}" matches 2 active tokens; nothing was revoked: revoke one by its id`,
    );
    const listed = [...ambiguous.stderr.matchAll(/^ {2}([0-9a-f-]{36}) {2}/gm)].map((m) => m[1]);
    expect(listed).toHaveLength(2);
    expect(ambiguous.stderr).not.toMatch(STACK_LINE);
    // Beside the two: the token the server's first start minted.
    const active = (await cli(['tokens', 'list'], env)).stdout.trim().split('\n');
    expect(active).toHaveLength(3);
    expect(active.filter((line) => line.includes('first start'))).toHaveLength(1);
    // By id, one of them goes; the name is then free again.
    const byId = await cli(['tokens', 'revoke', listed[0]!], env);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(`revoked ${listed[0]}`);
    expect((await cli(['tokens', 'create', '--name', 'ops'], env)).code).toBe(0);
  }, 300_000);
});
