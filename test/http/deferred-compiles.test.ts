import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeferredCompiles, deferredValidatorFactory } from '../../src/http/deferred-compiles.js';
import { sharedSerializerFactory } from '../../src/http/documents/serializers.js';
import { startTestApp, type TestApp } from '../support/app.js';

/** A bare Fastify app with the deferred compilers and one route whose query and response have schemas. */
async function bareApp(querystring: object) {
  const compiles = new DeferredCompiles();
  const app = Fastify({
    schemaController: {
      compilersFactory: {
        buildValidator: deferredValidatorFactory(compiles),
        buildSerializer: sharedSerializerFactory(compiles),
      },
    },
    ajv: { customOptions: { coerceTypes: true } },
  });
  app.get(
    '/n',
    {
      schema: {
        querystring,
        response: { 200: Type.Object({ n: Type.Integer() }) },
      },
    },
    async (request) => ({ n: (request.query as { n: number }).n, extra: 'not in the schema' }),
  );
  await app.ready();
  return { app, compiles };
}

describe('route schemas compiled on first use', () => {
  it('leaves every schema for later at ready, and compiles each once, on first use or in compileAll', async () => {
    const { app, compiles } = await bareApp(Type.Object({ n: Type.Integer({ minimum: 1 }) }));
    // The validator compiler (its Ajv instance), the querystring validator, the serializer compiler and the
    // 200 serializer: nothing compiled by ready().
    const pending = compiles.size;
    expect(pending).toBeGreaterThanOrEqual(4);

    const ok = await app.inject('/n?n=3');
    expect(ok.statusCode).toBe(200);
    // Coerced by Ajv, and serialized by the response schema (the extra field is dropped).
    expect(ok.json()).toEqual({ n: 3 });
    expect(compiles.size).toBeLessThan(pending);

    await compiles.compileAll();
    expect(compiles.size).toBe(0);
    await app.close();
  });

  it('reports a failed validation with the compiled validator’s errors', async () => {
    const { app } = await bareApp(Type.Object({ n: Type.Integer({ minimum: 1 }) }));
    for (const url of ['/n?n=0', '/n?n=x', '/n']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toMatch(/querystring\/n|must have required property 'n'/);
    }
    await app.close();
  });

  it('rejects compileAll when a schema cannot compile', async () => {
    const { app, compiles } = await bareApp({ type: 'object', properties: { n: { type: 'no-such-type' } } });
    await expect(compiles.compileAll()).rejects.toThrow(/no-such-type|type/);
    await app.close();
  });

  it('rejects compileAll for a schema the JSON Schema meta-schema refuses, though serving skips that check', async () => {
    const { app, compiles } = await bareApp({
      type: 'object',
      properties: { n: { type: 'integer', description: 42 } },
    });
    // Served without the meta-schema check (it would cost the first request the meta-schema's compile)...
    expect((await app.inject('/n?n=3')).statusCode).toBe(200);
    // ...and caught by the check compileAll runs, which fails a server's start.
    await expect(compiles.compileAll()).rejects.toThrow(/schema is invalid.*description must be string/);
    await app.close();
  });
});

describe('the service app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('compiles every route schema without error, and still validates after', async () => {
    await t.app.compileSchemas();
    const res = await t.get('/api/v1/jobs?page=0');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/page/);
  });
});
