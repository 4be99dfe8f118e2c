import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Parallel Task API (the Parallel Task API reference) on 127.0.0.1: POST /v1/tasks/runs answers 202 with a queued
 * TaskRun; every status or result call moves a run one state on (queued -> running -> completed, or failed);
 * /result holds up to `timeout` seconds (shortened to `holdMs`) and answers 408 while the run is active, 404 once
 * it failed, 200 with {run, output} when done. `failNext` forces statuses (429, 402, 503...) on the next calls.
 */

export interface FakeRun {
  run_id: string;
  interaction_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  processor: string;
  input: unknown;
  taskSpec: unknown;
  /** Result calls answered so far. */
  polls: number;
  /** Every status the run has had, in order (queued first). */
  history: FakeRun['status'][];
  fail: boolean;
}

export interface FakeParallelOptions {
  apiKey: string;
  /** Result calls a run needs before it completes (default 2: queued -> running -> completed). */
  pollsToComplete?: number;
  /** Longest hold of a result call, ms (default 20), whatever `timeout` asks. */
  holdMs?: number;
  /** The JSON content and citations of a completed run. */
  output: (run: FakeRun) => { content: unknown; basis: unknown[] };
}

const PROCESSORS = /^(lite|base|core|core2x|pro|ultra|ultra2x|ultra4x|ultra8x)(-fast)?$/;

export class FakeParallel {
  readonly runs = new Map<string, FakeRun>();
  readonly requests: { method: string; path: string; apiKey: string | undefined }[] = [];
  private forced: { status: number; path: RegExp; retryAfter?: string }[] = [];
  /** When true, the next created run fails instead of completing. */
  failNextRun = false;
  /** Result calls a run needs before it completes; tests raise it to make a run outlast a wait. */
  pollsToComplete: number;
  /** Longest hold of a result call, ms, whatever `timeout` asks. */
  holdMs: number;
  /** While true, runs do not move on: every result call is held, then answered 408. */
  paused = false;
  private server: Server | undefined;
  url = '';

  constructor(private readonly opts: FakeParallelOptions) {
    this.pollsToComplete = opts.pollsToComplete ?? 2;
    this.holdMs = opts.holdMs ?? 20;
  }

  /** Forces the next `count` requests whose path matches to answer `status` (Retry-After 0 for 429/503). */
  failNext(status: number, count = 1, path: RegExp = /./): void {
    for (let i = 0; i < count; i++) this.forced.push({ status, path, retryAfter: '0' });
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private error(
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    this.send(
      res,
      status,
      { type: 'error', error: { ref_id: randomBytes(8).toString('hex'), message, detail: null } },
      headers,
    );
  }

  private view(run: FakeRun) {
    const now = new Date().toISOString();
    return {
      run_id: run.run_id,
      interaction_id: run.interaction_id,
      status: run.status,
      is_active: run.status === 'queued' || run.status === 'running',
      warnings: null,
      error:
        run.status === 'failed'
          ? { ref_id: 'r1', message: 'Task execution failed: source unavailable', detail: null }
          : null,
      processor: run.processor,
      metadata: null,
      taskgroup_id: null,
      created_at: now,
      modified_at: now,
    };
  }

  private advance(run: FakeRun): void {
    if (this.paused) return;
    run.polls += 1;
    const before = run.status;
    if (run.status === 'queued') run.status = 'running';
    else if (run.status === 'running' && run.polls >= this.pollsToComplete) {
      run.status = run.fail ? 'failed' : 'completed';
    }
    if (run.status !== before) run.history.push(run.status);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const apiKey = req.headers['x-api-key'] as string | undefined;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, apiKey });
    const forced = this.forced.findIndex((f) => f.path.test(url.pathname));
    if (forced >= 0) {
      const [f] = this.forced.splice(forced, 1);
      const messages: Record<number, string> = {
        402: 'Insufficient credit',
        429: 'Quota temporarily exceeded',
        503: 'Service unavailable',
      };
      return this.error(
        res,
        f?.status ?? 500,
        messages[f?.status ?? 500] ?? 'error',
        f?.retryAfter ? { 'retry-after': f.retryAfter } : {},
      );
    }
    if (apiKey !== this.opts.apiKey) return this.error(res, 401, 'Invalid API key');

    if (req.method === 'POST' && url.pathname === '/v1/tasks/runs') {
      let body: { input?: unknown; processor?: unknown; task_spec?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return this.error(res, 422, 'Body is not JSON');
      }
      if (body.input === undefined || typeof body.processor !== 'string')
        return this.error(res, 422, 'input and processor are required');
      if (!PROCESSORS.test(body.processor)) return this.error(res, 403, 'Invalid processor in request');
      const run: FakeRun = {
        run_id: `trun_${randomBytes(8).toString('hex')}`,
        interaction_id: `trun_${randomBytes(8).toString('hex')}`,
        status: 'queued',
        processor: body.processor,
        input: body.input,
        taskSpec: body.task_spec,
        polls: 0,
        history: ['queued'],
        fail: this.failNextRun,
      };
      this.failNextRun = false;
      this.runs.set(run.run_id, run);
      return this.send(res, 202, this.view(run));
    }
    const m = /^\/v1\/tasks\/runs\/([^/]+)(\/result)?$/.exec(url.pathname);
    const run = m?.[1] ? this.runs.get(m[1]) : undefined;
    if (req.method === 'GET' && m) {
      if (!run) return this.error(res, 404, 'Run failed or run id not found');
      if (!m[2]) return this.send(res, 200, this.view(run));
      this.advance(run);
      if (run.status === 'queued' || run.status === 'running') {
        const timeoutS = Number(url.searchParams.get('timeout') ?? '600');
        await new Promise((r) => setTimeout(r, Math.min(timeoutS * 1000, this.holdMs)));
        return this.error(res, 408, 'Request timed out; run still active');
      }
      if (run.status === 'failed') return this.error(res, 404, 'Run failed or run id not found');
      const { content, basis } = this.opts.output(run);
      return this.send(res, 200, {
        run: this.view(run),
        output: { type: 'json', content, basis, output_schema: null, mcp_tool_calls: null },
      });
    }
    return this.error(res, 404, 'Not found');
  }
}
