import { Type } from 'typebox';
import { JobsQuery } from '../jobs/list-jobs.js';

/** GET /jobs's filters, as a watch stores them: the listing's own parameters, without paging or search. */
export const WatchFiltersSchema = Type.Omit(
  JobsQuery,
  ['page', 'limit', 'search', 'updated_since', 'after_id'],
  {
    description: 'GET /jobs filters (role_category, client_facing, company, location, remote_only, …)',
    additionalProperties: false,
  },
);

export const CreateWatchBody = Type.Object(
  {
    filters: Type.Optional(WatchFiltersSchema),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'As GET /jobs?search=' })),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Webhook target (http or https); the outbound guard applies (no private addresses). To test with a receiver ' +
        "on the server's machine, map a host name to it in the server's OUTBOUND_HOST_MAP " +
        '(hooks.test=http://127.0.0.1:8080) and give https://hooks.test/… here',
      examples: ['https://hooks.example.com/frontline'],
    }),
    description: Type.Optional(Type.String({ maxLength: 500, examples: ['FDE roles, remote'] })),
  },
  { additionalProperties: false },
);

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const WatchSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  filters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  search: Nullable(Type.String()),
  url: Type.String(),
  description: Nullable(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  disabledReason: Nullable(
    Type.String({ description: 'Why deliveries stopped (retries exhausted, refused URL)' }),
  ),
  createdAt: Timestamp,
});

export const CreatedWatchSchema = Type.Object({
  ...WatchSchema.properties,
  secret: Type.String({
    description: 'Standard Webhooks signing secret (whsec_…), shown only in this answer',
  }),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'The webhook-id header of every attempt' }),
  kind: Type.Union([Type.Literal('jobs'), Type.Literal('test')]),
  jobIds: Type.Array(Type.String({ format: 'uuid' })),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer({ minimum: 0 }),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's last HTTP status" }),
  lastError: Nullable(Type.String()),
  createdAt: Timestamp,
  lastAttemptAt: Nullable(Timestamp),
  deliveredAt: Nullable(Timestamp),
});

export const WatchIdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Watch id' }) });
