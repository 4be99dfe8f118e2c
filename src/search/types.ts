import type { CatalogSearch } from '../catalog/search-port.js';

/**
 * What search offers the catalog: the catalog's own search port (src/catalog/search-port.ts), which the hybrid
 * service implements. The catalog declares it, so the dependency points from search to the catalog.
 */
export type SearchService = CatalogSearch;

export type { Highlight, Highlighter, Ranges } from '../catalog/search-port.js';
