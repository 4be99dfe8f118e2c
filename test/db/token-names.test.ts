import { afterEach, describe, expect, it } from 'vitest';
import { TokenNameTakenError, TokenService } from '../../src/auth/tokens.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

/**
 * Active tokens' names are unique (migrations/0050_api_token_names.sql). A database that already holds active
 * tokens sharing a name is migrated by renaming all but the oldest, so the index builds and no token stops working.
 */
describe('token names', () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it('are unique among active tokens; a revoked token frees its name', async () => {
    t = await freshDatabase();
    await migrate(t.db);
    const tokens = new TokenService(t.db, []);
    const first = await tokens.create('ops');
    await expect(tokens.create('ops')).rejects.toBeInstanceOf(TokenNameTakenError);
    expect((await tokens.revoke(first.id))?.id).toBe(first.id);
    const second = await tokens.create('ops');
    expect(await tokens.verify(second.secret)).toEqual({ id: second.id, name: 'ops' });
  });

  it('are told apart by the migration where active tokens already shared one', async () => {
    t = await freshDatabase();
    await migrate(t.db);
    const db = t.db;
    // The state before the rule: no index, three active "ops" (one with a 100-character name's twin), one revoked.
    await db.exec('DROP INDEX api_tokens_active_name_idx');
    await db.query("DELETE FROM schema_migrations WHERE version = '0050'");
    const long = 'x'.repeat(100);
    const insert = (name: string, created: string, revoked: string | null = null) =>
      db.query<{ id: string }>(
        `INSERT INTO api_tokens (name, prefix, secret_hash, created_at, revoked_at)
         VALUES ($1, 'fl_test', md5(random()::text), $2, $3) RETURNING id`,
        [name, created, revoked],
      );
    const [oldest] = await insert('ops', '2026-01-01T00:00:00Z');
    const [later] = await insert('ops', '2026-01-02T00:00:00Z');
    await insert('ops', '2025-12-01T00:00:00Z', '2025-12-02T00:00:00Z');
    const [longFirst] = await insert(long, '2026-01-01T00:00:00Z');
    const [longSecond] = await insert(long, '2026-01-03T00:00:00Z');
    expect(await migrate(db)).toEqual(['0050_api_token_names']);
    const names = new Map(
      (
        await db.query<{ id: string; name: string }>(
          'SELECT id, name FROM api_tokens WHERE revoked_at IS NULL',
        )
      ).map((r) => [r.id, r.name]),
    );
    expect(names.get(oldest!.id)).toBe('ops');
    expect(names.get(later!.id)).toBe(`ops ${later!.id.slice(0, 8)}`);
    expect(names.get(longFirst!.id)).toBe(long);
    expect(names.get(longSecond!.id)).toBe(`${long.slice(0, 91)} ${longSecond!.id.slice(0, 8)}`);
    await expect(new TokenService(db, []).create('ops')).rejects.toBeInstanceOf(TokenNameTakenError);
  });
});
