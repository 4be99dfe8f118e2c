import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify 5 route answering a small constant JSON, no plugins, no logger. The bench divides
 * the service's throughput by this one's, measured in the same run on the same cores, so machine speed and
 * background load cancel out. The body is the size of a small envelope, as a catalog answer's smallest case.
 * Started as a child process with PORT in its environment (the bench's only reader of it).
 *
 * `/bare-sized` answers with the bytes of a real catalog answer, headers and body, set once by the bench through
 * `PUT /bare-sized`: what the client pays to receive a catalog answer, measured without the service (the ceiling
 * of a hot row, docs/bench.md).
 */
const app = Fastify({ logger: false });
const body = { data: { status: 'ok', service: 'bare', version: 1 } };
app.get('/bare', async () => body);

let sized: { headers: Record<string, string>; body: Buffer } | undefined;
app.put<{ Body: { headers: Record<string, string>; body: string } }>(
  '/bare-sized',
  async (request, reply) => {
    sized = { headers: request.body.headers, body: Buffer.from(request.body.body, 'base64') };
    return reply.code(204).send();
  },
);
app.get('/bare-sized', async (_request, reply) => {
  if (!sized) return reply.code(404).send({ error: 'PUT /bare-sized first' });
  return reply.headers(sized.headers).send(sized.body);
});

await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
