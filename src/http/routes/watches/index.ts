import type { WatchService } from '../../../watches/service.js';
import type { App } from '../../types.js';
import { changeWatchRoutes } from './change-watches.js';
import { createWatchRoute } from './create-watch.js';
import { readWatchRoutes } from './read-watches.js';

export async function watchRoutes(app: App, watches: WatchService, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      createWatchRoute(api, watches);
      readWatchRoutes(api, watches);
      changeWatchRoutes(api, watches);
    },
    { prefix },
  );
}
