import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/port.js';

/** Secrets look like fl_<32 base62-ish chars>; the prefix makes them greppable in leaked-secret scanners. */
export const TOKEN_SCHEME = 'fl_';
const DISPLAY_PREFIX_LENGTH = 12;
/** Tokens are not part of any cached response (the cache keys on the tier), so their writes leave those caches be. */
const NOT_CATALOG = { invalidates: false } as const;

export interface TokenIdentity {
  id: string;
  name: string;
}

export interface TokenRecord extends TokenIdentity {
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** One-shot crypto.hash: a createHash object per request cost more on every token request. */
export const hashToken = (secret: string): string => hash('sha256', secret, 'hex');

export function generateSecret(): string {
  return TOKEN_SCHEME + randomBytes(24).toString('base64url');
}

/** `stored`: a configured token's decoded hash, or a database row's hex one. */
function sameHash(stored: string | Buffer, presented: Buffer): boolean {
  return timingSafeEqual(typeof stored === 'string' ? Buffer.from(stored, 'hex') : stored, presented);
}

/** Token names are unique among active tokens. */
export class TokenNameTakenError extends Error {
  constructor(readonly tokenName: string) {
    super(`an active token is already named "${tokenName}": choose another name, or revoke that token first`);
    this.name = 'TokenNameTakenError';
  }
}

/** A revoke reference that matches several active tokens. */
export class AmbiguousTokenError extends Error {
  constructor(
    readonly ref: string,
    readonly matches: TokenRecord[],
  ) {
    super(`"${ref}" matches ${matches.length} active tokens; nothing was revoked: revoke one by its id`);
    this.name = 'AmbiguousTokenError';
  }
}

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/**
 * Tokens come from two places: API_TOKENS (configuration, for simple deployments) and the api_tokens table
 * (minted by the CLI). Only sha256 hashes are kept in memory or stored; every comparison is constant-time.
 * Revocation takes effect on the next request in every process because valid database tokens are not cached.
 */
export class TokenService {
  /** The configured tokens' hashes, decoded once: they are compared on every token request. */
  private readonly envTokens: { id: string; name: string; hash: Buffer }[];
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly db: Db,
    envSecrets: string[],
    private readonly now: () => number = Date.now,
  ) {
    this.envTokens = envSecrets.map((secret, i) => {
      const hex = hashToken(secret);
      return { id: `env:${hex.slice(0, 8)}`, name: `API_TOKENS[${i}]`, hash: Buffer.from(hex, 'hex') };
    });
  }

  /** Mints a token; an active token with the same name makes it throw TokenNameTakenError. */
  async create(name: string): Promise<TokenRecord & { secret: string }> {
    const secret = generateSecret();
    try {
      const rows = await this.db.query<TokenRow>(
        `INSERT INTO api_tokens (name, prefix, secret_hash) VALUES ($1, $2, $3) RETURNING *`,
        [name, secret.slice(0, DISPLAY_PREFIX_LENGTH), hashToken(secret)],
        NOT_CATALOG,
      );
      return { ...toRecord(rows[0]!), secret };
    } catch (err) {
      // The unique index on active tokens' names (migrations/0050_api_token_names.sql).
      if ((err as { code?: string }).code === '23505') throw new TokenNameTakenError(name);
      throw err;
    }
  }

  async list(includeRevoked = false): Promise<TokenRecord[]> {
    const rows = await this.db.query<TokenRow>(
      `SELECT * FROM api_tokens ${includeRevoked ? '' : 'WHERE revoked_at IS NULL'} ORDER BY created_at, id`,
    );
    return rows.map(toRecord);
  }

  /**
   * Revokes the one active token whose id, display prefix or name is `ref`; returns it, or null when none matches.
   * Several matches (two tokens sharing a display prefix, a name that is another token's prefix) revoke nothing:
   * AmbiguousTokenError lists them, so the caller can pick one by id.
   */
  async revoke(ref: string): Promise<TokenRecord | null> {
    const matches = await this.db.query<TokenRow>(
      `SELECT * FROM api_tokens WHERE revoked_at IS NULL AND (id::text = $1 OR prefix = $1 OR name = $1)
       ORDER BY created_at, id`,
      [ref],
    );
    if (matches.length > 1) throw new AmbiguousTokenError(ref, matches.map(toRecord));
    const [match] = matches;
    if (!match) return null;
    const [row] = await this.db.query<TokenRow>(
      'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING *',
      [match.id],
      NOT_CATALOG,
    );
    return row ? toRecord(row) : null;
  }

  /** Returns the token's identity, or null when the secret is unknown or revoked. */
  async verify(secret: string): Promise<TokenIdentity | null> {
    const presented = Buffer.from(hashToken(secret), 'hex');
    // Check every configured token without stopping early, so timing does not reveal which one matched.
    let envMatch: TokenIdentity | null = null;
    for (const t of this.envTokens) if (sameHash(t.hash, presented) && !envMatch) envMatch = t;
    if (envMatch) return { id: envMatch.id, name: envMatch.name };
    if (!secret.startsWith(TOKEN_SCHEME) || secret.length < DISPLAY_PREFIX_LENGTH) return null;

    const rows = await this.db.query<TokenRow>(
      'SELECT * FROM api_tokens WHERE prefix = $1 AND revoked_at IS NULL',
      [secret.slice(0, DISPLAY_PREFIX_LENGTH)],
    );
    const match = rows.find((r) => sameHash(r.secret_hash, presented));
    if (!match) return null;
    this.touch(match.id);
    return { id: match.id, name: match.name };
  }

  /** Records last use at most once a minute per token: a write per request would cost more than the read. */
  private touch(id: string): void {
    const now = this.now();
    if (now - (this.lastTouched.get(id) ?? 0) < 60_000) return;
    this.lastTouched.set(id, now);
    this.db.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [id], NOT_CATALOG).catch(() => {
      this.lastTouched.delete(id);
    });
  }
}
