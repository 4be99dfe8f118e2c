import type { Db } from '../db/port.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { vetUrl } from '../net/guard.js';
import { OutboundError } from '../net/types.js';
import { newMessageId, newSecret } from './signing.js';
import {
  type Delivery,
  deleteWatch,
  findWatch,
  insertDelivery,
  insertWatch,
  listDeliveries,
  listWatches,
  publicWatch,
  type Watch,
  type WatchFilters,
} from './store.js';

export interface WatchInput {
  filters: WatchFilters;
  search: string | null;
  url: string;
  description: string | null;
}

export interface WatchServiceOptions {
  db: Db;
  now: () => number;
  /** Hosts OUTBOUND_HOST_MAP sends elsewhere: they skip the address checks, as every outbound request does. */
  mapped: (host: string) => boolean;
  enqueue: (deliveryId: string) => Promise<void>;
}

/** The most watches one token may hold: past it, creating another is refused (409) until one is deleted. */
export const MAX_WATCHES_PER_TOKEN = 100;

/** How to reach a receiver on this machine anyway, for the refusals of a private address or port. */
function localHint(err: OutboundError): string {
  if (err.reason !== 'blocked_address' && err.reason !== 'blocked_port') return '';
  return (
    ". To test a webhook locally, map a public-looking host name to your receiver in the server's " +
    'OUTBOUND_HOST_MAP (e.g. OUTBOUND_HOST_MAP=hooks.test=http://127.0.0.1:8080) and use https://hooks.test/… as url'
  );
}

/** A watch's owner is the token that created it: other tokens neither see nor change it. */
export class WatchService {
  constructor(private readonly o: WatchServiceOptions) {}

  /** The new watch and its signing secret, which is shown this once. */
  async create(owner: string, input: WatchInput): Promise<Watch & { secret: string }> {
    try {
      vetUrl(input.url, this.o.mapped);
    } catch (err) {
      if (err instanceof OutboundError)
        throw badRequest(`Invalid body field 'url': ${err.message}${localHint(err)}`);
      throw err;
    }
    const secret = newSecret();
    const stored = await insertWatch(
      this.o.db,
      { owner, ...input },
      secret,
      this.o.now(),
      MAX_WATCHES_PER_TOKEN,
    );
    if (!stored) {
      throw new AppError(
        'CONFLICT',
        `This token holds ${MAX_WATCHES_PER_TOKEN} watches, the most one token may hold; delete one first`,
      );
    }
    return { ...publicWatch(stored), secret };
  }

  /** One page of the owner's watches, newest first, and how many it holds. */
  async list(
    owner: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: Watch[]; total: number }> {
    const { items, total } = await listWatches(this.o.db, owner, page);
    return { items: items.map(publicWatch), total };
  }

  async get(owner: string, id: string): Promise<Watch> {
    const watch = await findWatch(this.o.db, owner, id);
    if (!watch) throw notFound(`No watch with id '${id}'`);
    return publicWatch(watch);
  }

  async remove(owner: string, id: string): Promise<void> {
    if (!(await deleteWatch(this.o.db, owner, id, this.o.now()))) throw notFound(`No watch with id '${id}'`);
  }

  async deliveries(owner: string, id: string, limit: number): Promise<Delivery[]> {
    await this.get(owner, id);
    return listDeliveries(this.o.db, id, limit);
  }

  /** Sends a `watch.test` message through the same signed, retried delivery as real batches. */
  async test(owner: string, id: string): Promise<{ deliveryId: string }> {
    const watch = await this.get(owner, id);
    const deliveryId = newMessageId();
    const payload = {
      type: 'watch.test',
      timestamp: new Date(this.o.now()).toISOString(),
      data: { watch: { id: watch.id, filters: watch.filters, search: watch.search }, jobs: [] },
    };
    await insertDelivery(
      this.o.db,
      { id: deliveryId, watchId: watch.id, kind: 'test', jobIds: [], payload },
      this.o.now(),
    );
    await this.o.enqueue(deliveryId);
    return { deliveryId };
  }
}
