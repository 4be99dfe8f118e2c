import { Type } from 'typebox';
import { pendingMigrations } from '../../../db/migrate.js';
import type { Deps } from '../../../deps.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';

const Health = Type.Object({ data: Type.Object({ status: Type.String({ examples: ['ok'] }) }) });
const Ready = Type.Object({
  data: Type.Object({
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    database: Type.String({ description: 'ok, or the reason it is not', examples: ['ok'] }),
    pendingMigrations: Type.Array(Type.String()),
    warm: Type.Boolean({
      description:
        "Whether the process has finished its start's warm-up: the in-process catalog replica loaded, route schemas compiled, the workflow engine launched or left idle, the word vectors read. Answers are correct before, but searches wait for the replica.",
    }),
  }),
});
const ReadyQuery = Type.Object(
  {
    warm: Type.Optional(
      Type.Boolean({
        description:
          'true: also 503 until the warm-up is done, so a load balancer sends a new process traffic once it serves at full speed',
      }),
    ),
  },
  { additionalProperties: false },
);

const HEALTHY = { data: { status: 'ok' } } as const;

/** Liveness and readiness probes: outside rate limits, so an orchestrator's polling never eats a quota. */
export function healthRoutes(app: App, deps: Deps): void {
  app.get(
    '/healthz',
    {
      config: { access: 'public', rateLimited: false },
      schema: {
        operationId: 'getLiveness',
        tags: ['system'],
        summary: 'Liveness: the process is up',
        response: { 200: Health },
      },
    },
    // Synchronous: the probe's answer needs no promise.
    () => HEALTHY,
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public', rateLimited: false },
      schema: {
        operationId: 'getReadiness',
        tags: ['system'],
        summary:
          'Readiness: database (and read replica, if any) reachable and migrations applied (and, with warm=true, the warm-up done)',
        querystring: ReadyQuery,
        // Ready must come after errorResponses(), whose 503 (the error envelope) would otherwise replace it and
        // turn a not-ready answer into a serialization failure (500) exactly when the database is down.
        response: { ...errorResponses(), 200: Ready, 503: Ready },
      },
    },
    async (request, reply) => {
      let database = 'ok';
      const pending: string[] = [];
      try {
        // Both databases, where public reads have one of their own (DATABASE_READ_URL): a process that cannot
        // read its replica cannot answer the catalog, and a replica short of this build's migrations (replication
        // behind a deploy) lacks the schema its queries need.
        for (const db of new Set([deps.db, deps.readDb])) {
          await db.query('SELECT 1');
          for (const name of await pendingMigrations(db)) if (!pending.includes(name)) pending.push(name);
        }
      } catch (err) {
        // The cause goes to the log; the probe's answer names no internal hosts or ports.
        request.log.warn({ err }, 'readiness: database unreachable');
        database = 'unreachable';
      }
      const warm = deps.warmup.done;
      const ready = database === 'ok' && pending.length === 0 && (warm || request.query.warm !== true);
      return reply.status(ready ? 200 : 503).send({
        data: { status: ready ? 'ready' : 'not_ready', database, pendingMigrations: pending, warm },
      });
    },
  );
}
