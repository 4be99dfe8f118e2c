/**
 * Mutation groups: the source files that carry one of the spec's rules, and the test files that must catch a
 * change to them. Kept small so that each mutant reruns only the tests that cover it.
 */
export const GROUPS = {
  guard: {
    mutate: ['src/http/limits/guard.ts', 'src/http/limits/tiers.ts'],
    tests: [
      'test/http/policies.test.ts',
      'test/http/token-routes.test.ts',
      'test/http/rate-limit.test.ts',
      'test/http/metrics.test.ts',
      'test/http/guard-rules.test.ts',
    ],
  },
  pagination: {
    mutate: ['src/http/limits/pagination.ts'],
    tests: ['test/http/policies.test.ts', 'test/catalog/jobs.test.ts', 'test/http/guard-rules.test.ts'],
  },
  ratelimit: {
    mutate: ['src/http/limits/store.ts', 'src/http/limits/redis-store.ts'],
    tests: [
      'test/http/rate-limit.test.ts',
      'test/http/policies.test.ts',
      'test/http/rate-limit-stores.test.ts',
    ],
  },
  filters: {
    mutate: ['src/catalog/filters.ts', 'src/catalog/fields/job-filters.ts'],
    // Away from UTC: a date-time without an offset that fell back to the host's zone would show (vitest's worker
    // threads, which Stryker runs, keep the zone of their process).
    env: { TZ: 'America/New_York' },
    tests: [
      'test/catalog/jobs.test.ts',
      'test/catalog/declared-filters.test.ts',
      'test/catalog/companies.test.ts',
      'test/catalog/filter-rules.test.ts',
      'test/catalog/mirror.test.ts',
      'test/catalog/listing-paths.test.ts',
    ],
  },
  sightings: {
    mutate: ['src/pipeline/discovery/sightings.ts'],
    tests: ['test/discovery/discover.test.ts', 'test/discovery/sightings-writes.test.ts'],
  },
  jobstore: {
    mutate: ['src/pipeline/store/jobs.ts'],
    tests: ['test/pipeline/job-store.test.ts', 'test/pipeline/job-store-details.test.ts'],
  },
  net: {
    mutate: ['src/net/guard.ts', 'src/net/address.ts'],
    tests: [
      'test/net/address.test.ts',
      'test/net/address-forms.test.ts',
      'test/net/guarded-lookup.test.ts',
      'test/net/client.test.ts',
    ],
  },
};
