/** The environment reader parseConfig (src/config.ts) reads every setting through. */

export type Env = Record<string, string | undefined>;

/** Collects problems instead of throwing at the first one. */
export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(key: string): string | undefined {
    const v = this.env[key];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  str(key: string, fallback: string): string {
    return this.raw(key) ?? fallback;
  }

  int(key: string, fallback: number, min: number, max: number): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      this.problems.push(`${key} must be an integer from ${min} to ${max} (got "${v}")`);
      return fallback;
    }
    return Number(v);
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    this.problems.push(`${key} must be true/false or 1/0 (got "${v}")`);
    return fallback;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${key} must be one of ${allowed.join(', ')} (got "${v}")`);
      return fallback;
    }
    return v as T;
  }

  url(key: string, protocols: string[]): string | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return v;
    } catch {
      this.problems.push(`${key} must be a ${protocols.join(' or ')} URL`);
      return undefined;
    }
  }
}
