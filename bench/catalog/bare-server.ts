import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify 5 route answering a small constant JSON, no plugins, no logger. The bench divides
 * the service's throughput by this one's, measured in the same run on the same cores, so machine speed and
 * background load cancel out. The body is the size of a small envelope, as a catalog answer's smallest case.
 * Started as a child process with PORT in its environment (the bench's only reader of it).
 */
const app = Fastify({ logger: false });
const body = { data: { status: 'ok', service: 'bare', version: 1 } };
app.get('/bare', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
