/** The registry of source adapters: the pipeline looks adapters up by provider name only. */
import { ashby } from './ashby.js';
import { greenhouse } from './greenhouse.js';
import { lever } from './lever.js';
import { recruitee } from './recruitee.js';
import { smartrecruiters } from './smartrecruiters.js';
import type { Provider, SourceAdapter } from './types.js';
import { workable } from './workable.js';

export const ADAPTERS: Readonly<Record<Provider, SourceAdapter>> = {
  greenhouse,
  lever,
  ashby,
  workable,
  smartrecruiters,
  recruitee,
};

export function getAdapter(provider: Provider): SourceAdapter {
  return ADAPTERS[provider];
}

export function isProvider(value: string): value is Provider {
  return Object.hasOwn(ADAPTERS, value);
}
