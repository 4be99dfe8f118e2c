import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `npm run demo` as a real process, with a temporary directory of its own (TMPDIR) so the test sees what it
 * leaves behind: on a busy port it says which port and how to pick another; stopped with Ctrl-C it removes its
 * temporary data either way.
 */
describe('npm run demo', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const demo = (env: Record<string, string>) => {
    const tmp = mkdtempSync(join(tmpdir(), 'frontline-demo-test-'));
    dirs.push(tmp);
    // tsx keeps its compile cache in TMPDIR (tsx-<uid>): linked to this process's, so the demo does not compile
    // every source file again. It is not the demo's data, which is all the test looks for in the directory.
    const cache = `tsx-${process.geteuid?.() ?? userInfo().username}`;
    mkdirSync(join(tmpdir(), cache), { recursive: true });
    symlinkSync(join(tmpdir(), cache), join(tmp, cache));
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--exit'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        TMPDIR: tmp,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | string>((ok) =>
      child.once('exit', (code, signal) => ok(code ?? signal ?? '')),
    );
    return { child, tmp, exited, stdout: () => stdout, stderr: () => stderr };
  };
  const leftovers = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith('frontline-demo-'));

  it('on a busy port says which one and how to pick another, and leaves no temporary data', async () => {
    const busy: Server = createServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = demo({ PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(`npm run demo: port ${port} on 127.0.0.1 is already in use`);
      expect(run.stderr()).toContain(`PORT=${port + 1} npm run demo`);
      expect(run.stderr()).not.toMatch(/^\s+at /m);
      expect(leftovers(run.tmp)).toEqual([]);
    } finally {
      busy.close();
    }
  }, 300_000);

  it('stopped with Ctrl-C mid-run, removes its temporary data', async () => {
    const run = demo({ PORT: '0' });
    // Serving, its data directory made, the onboardings under way.
    while (!run.stdout().includes('Frontline is serving')) {
      if (run.child.exitCode !== null) throw new Error(`demo exited early: ${run.stderr()}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(leftovers(run.tmp)).toHaveLength(1);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(leftovers(run.tmp)).toEqual([]);
  }, 300_000);
});
