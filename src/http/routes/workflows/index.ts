import type { Deps } from '../../../deps.js';
import type { App } from '../../types.js';
import { getWorkflowRoute } from './get-workflow.js';

export async function workflowRoutes(app: App, deps: Deps, prefix: string): Promise<void> {
  await app.register(
    async (api) => {
      getWorkflowRoute(api, deps);
    },
    { prefix },
  );
}
