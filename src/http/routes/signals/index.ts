import type { SignalsService } from '../../../signals/service.js';
import type { App } from '../../types.js';
import { companyHiringRoute, trendsRoute } from './series.js';
import { newlyHiringRoute, timeToCloseRoute } from './signals.js';

export function signalsRoutes(app: App, signals: SignalsService, now: () => number): void {
  companyHiringRoute(app, signals, now);
  trendsRoute(app, signals, now);
  newlyHiringRoute(app, signals, now);
  timeToCloseRoute(app, signals, now);
}
