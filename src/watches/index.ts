import type { JobFilters } from '../catalog/types.js';
import type { Config } from '../config.js';
import type { Db } from '../db/port.js';
import { clientOptionsFromConfig, OutboundClient } from '../net/client.js';
import type { WorkflowDefinition, WorkflowEngine } from '../pipeline/engine/types.js';
import { DELIVER_WORKFLOW, deliveryWorkflow } from './delivery.js';
import { WatchMatcher } from './matcher.js';
import { WatchService } from './service.js';
import type { WatchFilters } from './store.js';

export interface WatchPartsOptions {
  config: Config;
  db: Db;
  now: () => number;
  engine: () => WorkflowEngine;
  parseFilters: (filters: WatchFilters) => JobFilters;
  searchIds: (filters: JobFilters, search: string) => Promise<Set<string>>;
  /** MatcherOptions.searchedUpTo. */
  searchedUpTo?: () => Promise<number>;
  onOutbound: (host: string, outcome: string) => void;
  onDelivery: (outcome: 'delivered' | 'retry' | 'failed') => void;
  onError: (err: unknown) => void;
}

/** Watches wired together: the service the routes call, the matcher a worker runs, the delivery workflow. */
export function createWatchParts(o: WatchPartsOptions): {
  service: WatchService;
  matcher: WatchMatcher;
  definition: WorkflowDefinition;
} {
  const enqueue = async (deliveryId: string) => {
    await o.engine().enqueue(DELIVER_WORKFLOW, { deliveryId });
  };
  const hostMap = o.config.outboundHostMap ?? {};
  const mapped = (host: string) =>
    Object.keys(hostMap).some(
      (h) => h.toLowerCase() === host || (h.startsWith('.') && host.endsWith(h.toLowerCase())),
    );
  return {
    service: new WatchService({ db: o.db, now: o.now, mapped, enqueue }),
    matcher: new WatchMatcher({
      db: o.db,
      now: o.now,
      parseFilters: o.parseFilters,
      searchIds: o.searchIds,
      ...(o.searchedUpTo ? { searchedUpTo: o.searchedUpTo } : {}),
      enqueue,
      pollMs: o.config.watches.pollMs,
      onError: o.onError,
    }),
    definition: deliveryWorkflow({
      db: o.db,
      http: new OutboundClient(clientOptionsFromConfig(o.config, o.onOutbound)),
      now: o.now,
      wallNow: Date.now,
      random: Math.random,
      retryBaseMs: o.config.watches.retryBaseMs,
      retryForMs: o.config.watches.retryForMs,
      onOutcome: o.onDelivery,
    }) as unknown as WorkflowDefinition,
  };
}

export { WatchMatcher, WatchService };
