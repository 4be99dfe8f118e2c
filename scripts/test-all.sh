#!/usr/bin/env bash
# The whole test suite: type-check, lint, then every test on the embedded database (PGlite) and, when a
# PostgreSQL server is reachable (always in CI), again on the server with Redis.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REDIS="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"

echo "== typecheck"; npx tsc --noEmit -p .
echo "== lint"; npx biome check .
echo "== lint the OpenAPI document (redocly.yaml)"; npm run --silent lint:openapi
echo "== import cycles"; npm run --silent check:cycles
echo "== file and function sizes"; npm run --silent check:sizes
echo "== copied blocks"; npm run --silent check:copies
echo "== tests on PGlite (embedded)"
TEST_DATABASE_URL= TEST_REDIS_URL= npx vitest run

if node -e "const c=new (require('pg').Client)({connectionString:process.argv[1]});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$PG_URL"; then
  echo "== tests on PostgreSQL ($PG_URL) + Redis ($REDIS)"
  # The fault-injection tests (a private PostgreSQL cluster stopped under load, Redis killed; ~15 s) run here too;
  # the tests of pure code that reach no database ran in the first pass (TEST_DATABASE_FREE, vitest.config.ts).
  TEST_DATABASE_URL="$PG_URL" TEST_REDIS_URL="$REDIS" FAULT_TESTS="${FAULT_TESTS:-1}" TEST_DATABASE_FREE=skip \
    npx vitest run
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL at $PG_URL is unreachable; CI requires the server pass" >&2
  exit 1
else
  echo "== PostgreSQL not reachable at $PG_URL: server pass skipped (CI always runs it)"
fi
