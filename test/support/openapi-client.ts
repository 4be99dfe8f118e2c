import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * A client generated at run time from the served OpenAPI document: operations are called by operationId with the
 * parameters the document declares, over real HTTP, and every answer is checked against the document. A status
 * the operation does not declare, a media type it does not declare, a body that does not match the declared
 * schema, or one of the document's named headers sent on a response that does not declare it: each throws.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}
interface ResponseDoc {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationDoc {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  security?: Record<string, string[]>[];
  responses: Record<string, ResponseDoc>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationDoc>>;
  components: { headers?: Record<string, unknown> };
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  doc: OperationDoc;
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Query parameters the operation does not declare, sent on purpose. */
  undeclaredQuery?: Record<string, string>;
  /** JSON-encoded with Content-Type application/json unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** Sends another method to the operation's path: the answer is checked against this operation (405). */
  method?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const pointer = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

export class OpenApiClient {
  readonly operations = new Map<string, Operation>();
  /** operationId -> statuses seen, for coverage checks. */
  readonly seen = new Map<string, Set<number>>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly headerNames: string[];

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly baseUrl: string,
  ) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi.json');
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
        this.operations.set(op.operationId, {
          id: op.operationId,
          method: method.toUpperCase(),
          path,
          doc: op,
        });
      }
    }
    this.headerNames = Object.keys(doc.components.headers ?? {});
  }

  operation(id: string): Operation {
    const op = this.operations.get(id);
    if (!op) throw new Error(`the document has no operation ${id}`);
    return op;
  }

  url(op: Operation, options: CallOptions): string {
    const declared = op.doc.parameters ?? [];
    let path = op.path;
    for (const p of declared.filter((d) => d.in === 'path')) {
      const value = options.params?.[p.name];
      if (value === undefined) throw new Error(`${op.id}: path parameter ${p.name} is required`);
      path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    }
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (!declared.some((d) => d.in === 'query' && d.name === name))
        throw new Error(`${op.id} declares no query parameter ${name}`);
      query.append(name, value);
    }
    for (const [name, value] of Object.entries(options.undeclaredQuery ?? {})) query.append(name, value);
    return `${this.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`;
  }

  async call(id: string, options: CallOptions = {}): Promise<Answer> {
    const op = this.operation(id);
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const method = options.method ?? op.method;
    const res = await fetch(this.url(op, options), {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    const answer = { status: res.status, headers: res.headers, body: text as unknown };
    answer.body = this.check(op, method, answer.status, res.headers, text);
    this.seen.set(id, (this.seen.get(id) ?? new Set<number>()).add(res.status));
    return answer;
  }

  /** Checks an answer against the document and returns its parsed body. */
  private check(op: Operation, method: string, status: number, headers: Headers, text: string): unknown {
    const where = `${method} ${op.path} (${op.id}) -> ${status} ${text.slice(0, 300)}`;
    const declared = op.doc.responses[String(status)];
    if (!declared) throw new Error(`undeclared status: ${where}`);
    for (const name of this.headerNames) {
      if (headers.has(name) && !declared.headers?.[name])
        throw new Error(`header ${name} is sent but not declared: ${where}`);
    }
    if (!declared.content) {
      if (text !== '') throw new Error(`a body where the document declares none: ${where}`);
      return undefined;
    }
    const mediaType = (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!(mediaType in declared.content)) throw new Error(`undeclared media type ${mediaType}: ${where}`);
    const body = mediaType === 'application/json' ? (JSON.parse(text) as unknown) : text;
    const ref = [
      'paths',
      op.path,
      op.method.toLowerCase(),
      'responses',
      String(status),
      'content',
      mediaType,
      'schema',
    ]
      .map(pointer)
      .join('/');
    const validate = this.ajv.getSchema(`openapi.json#/${ref}`);
    if (!validate) throw new Error(`no schema at ${ref}`);
    if (!validate(body)) throw new Error(`${this.ajv.errorsText(validate.errors)}: ${where}`);
    return body;
  }
}
