/** The registry of source adapters: the pipeline looks adapters up by provider name only. */
import { ashby } from './ashby.js';
import { bamboohr } from './bamboohr.js';
import { breezy } from './breezy.js';
import { gem } from './gem.js';
import { greenhouse } from './greenhouse.js';
import { lever } from './lever.js';
import { personio } from './personio.js';
import { pinpoint } from './pinpoint.js';
import { recruitee } from './recruitee.js';
import { rippling } from './rippling.js';
import { smartrecruiters } from './smartrecruiters.js';
import type { Provider, SourceAdapter } from './types.js';
import { workable } from './workable.js';
import { workday } from './workday.js';

export const ADAPTERS: Readonly<Record<Provider, SourceAdapter>> = {
  greenhouse,
  lever,
  ashby,
  workable,
  smartrecruiters,
  recruitee,
  workday,
  personio,
  bamboohr,
  breezy,
  pinpoint,
  gem,
  rippling,
};

export function getAdapter(provider: Provider): SourceAdapter {
  return ADAPTERS[provider];
}

export function isProvider(value: string): value is Provider {
  return Object.hasOwn(ADAPTERS, value);
}
