import { createRequire } from 'node:module';

// cheerio (with its parsers) costs ~0.2 s to import and only pipeline steps parse HTML: loading it on first use
// keeps it off the API's start-up path. It ships a CommonJS build, so a synchronous require works.
const require = createRequire(import.meta.url);
type Cheerio = typeof import('cheerio');
let cheerio: Cheerio | undefined;

/** cheerio's load, imported on first call. */
export const loadHtml: Cheerio['load'] = (...args) => {
  cheerio ??= require('cheerio') as Cheerio;
  return cheerio.load(...args);
};
