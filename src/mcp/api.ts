/**
 * How the MCP tools reach Frontline: always through its public HTTP API, so a tool answers exactly what the
 * endpoint answers (validation, tiers, limits, errors). In the service the calls are injected into the app
 * itself; from `frontline mcp --url` they go over the network to any deployment.
 */

/** An API answer: its status and parsed JSON body (the envelope, or the OpenAPI document). */
export interface ApiResponse {
  status: number;
  body: unknown;
  /** A 429's Retry-After, in seconds. */
  retryAfterS?: number;
}

/** Retry-After as a whole number of seconds (the API sends seconds); undefined when absent or not a number. */
function retryAfter(value: string | string[] | number | undefined | null): number | undefined {
  const seconds = Number(Array.isArray(value) ? value[0] : (value ?? undefined));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

export type QueryValues = Record<string, string>;

export interface FrontlineApi {
  /** One call to a path under the API's base (`/jobs`, `/companies/anthropic`). */
  request(method: 'GET' | 'POST', path: string, query?: QueryValues, body?: unknown): Promise<ApiResponse>;
}

/** The API's base path; the OpenAPI document names paths with it. */
export const API_BASE = '/api/v1';

function withQuery(path: string, query: QueryValues | undefined): string {
  const qs = new URLSearchParams(query ?? {}).toString();
  return qs ? `${path}?${qs}` : path;
}

async function parsed(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  const wait = retryAfter(res.headers.get('retry-after'));
  const status = { status: res.status, ...(wait !== undefined && { retryAfterS: wait }) };
  try {
    return { ...status, body: text ? JSON.parse(text) : null };
  } catch {
    return { ...status, body: { error: { code: 'SERVER_ERROR', message: text.slice(0, 200) } } };
  }
}

/** A deployment reached over HTTP(S), as any client would, with an optional bearer token. */
export class HttpApi implements FrontlineApi {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly token?: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    query?: QueryValues,
    body?: unknown,
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.fetchImpl(`${this.base}${withQuery(API_BASE + path, query)}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      // A stalled deployment must not hang the desktop client's tool call forever.
      signal: AbortSignal.timeout(30_000),
    });
    return parsed(res);
  }
}

/** What an in-process call needs to act as the MCP request's own caller. */
export interface InjectTarget {
  inject(opts: {
    method: 'GET' | 'POST';
    url: string;
    headers: Record<string, string>;
    remoteAddress: string;
    payload?: string;
  }): Promise<{
    statusCode: number;
    body: string;
    headers: Record<string, string | string[] | number | undefined>;
  }>;
}

/**
 * Calls injected into the app on behalf of one MCP request: the caller's Authorization header and address are
 * passed on, so tiers and token checks are the endpoint's own. `internal` marks the call as part of a request
 * the guard has already counted, so one MCP message costs one request of the caller's rate limit.
 */
export class InjectApi implements FrontlineApi {
  constructor(
    private readonly app: InjectTarget,
    private readonly caller: { authorization?: string | undefined; ip: string },
    private readonly internal: { header: string; value: string },
  ) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    query?: QueryValues,
    body?: unknown,
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [this.internal.header]: this.internal.value,
    };
    if (this.caller.authorization) headers.authorization = this.caller.authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.app.inject({
      method,
      url: withQuery(API_BASE + path, query),
      headers,
      remoteAddress: this.caller.ip,
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    const wait = retryAfter(res.headers['retry-after']);
    const status = { status: res.statusCode, ...(wait !== undefined && { retryAfterS: wait }) };
    try {
      return { ...status, body: res.body ? JSON.parse(res.body) : null };
    } catch {
      return { ...status, body: null };
    }
  }
}
