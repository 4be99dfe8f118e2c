/** The registry of source adapters: the pipeline looks adapters up by provider name only. */

import type { Provider, SourceAdapter } from './types.js';
import { ashby } from './vendors/ashby.js';
import { bamboohr } from './vendors/bamboohr.js';
import { breezy } from './vendors/breezy.js';
import { gem } from './vendors/gem.js';
import { greenhouse } from './vendors/greenhouse.js';
import { lever } from './vendors/lever.js';
import { personio } from './vendors/personio.js';
import { pinpoint } from './vendors/pinpoint.js';
import { recruitee } from './vendors/recruitee.js';
import { rippling } from './vendors/rippling.js';
import { smartrecruiters } from './vendors/smartrecruiters.js';
import { workable } from './vendors/workable.js';
import { workday } from './vendors/workday.js';

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
