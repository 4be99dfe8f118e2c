/** Job-board URLs of the supported vendors → (vendor, identifier the adapter takes; docs/sources.md). */
import type { RegistryVendor } from '../../src/registry/schema.js';

export interface BoardId {
  vendor: RegistryVendor;
  board: string;
}

/** Path-based boards: the host, then the identifier as the first path segment after an optional prefix. */
const BY_PATH: [RegExp, RegistryVendor][] = [
  [/^(?:job-boards|boards)(?:\.eu)?\.greenhouse\.io\/(?:embed\/job_board\?for=)?([^/?#]+)/, 'greenhouse'],
  [/^boards-api(?:\.eu)?\.greenhouse\.io\/v1\/boards\/([^/?#]+)/, 'greenhouse'],
  [/^jobs\.ashbyhq\.com\/([^/?#]+)/, 'ashby'],
  [/^api\.ashbyhq\.com\/posting-api\/job-board\/([^/?#]+)/, 'ashby'],
  [/^jobs(?:\.eu)?\.lever\.co\/([^/?#]+)/, 'lever'],
  [/^api(?:\.eu)?\.lever\.co\/v0\/postings\/([^/?#]+)/, 'lever'],
  [/^apply\.workable\.com\/(?:api\/v\d\/(?:widget\/)?accounts\/)?([^/?#]+)/, 'workable'],
  [/^jobs\.gem\.com\/([^/?#]+)/, 'gem'],
  [/^ats\.rippling\.com\/([^/?#]+)/, 'rippling'],
  [/^(?:careers|jobs)\.smartrecruiters\.com\/([^/?#]+)/, 'smartrecruiters'],
  [/^api\.smartrecruiters\.com\/v1\/companies\/([^/?#]+)/, 'smartrecruiters'],
];

/** Subdomain boards: the identifier is the first label of the host. */
const BY_HOST: [RegExp, RegistryVendor][] = [
  [/^([a-z0-9-]+)\.recruitee\.com$/, 'recruitee'],
  [/^([a-z0-9-]+)\.jobs\.personio\.(?:com|de)$/, 'personio'],
  [/^([a-z0-9-]+)\.bamboohr\.com$/, 'bamboohr'],
  [/^([a-z0-9-]+)\.breezy\.hr$/, 'breezy'],
  [/^([a-z0-9-]+)\.pinpointhq\.com$/, 'pinpoint'],
];

const VENDOR_HOSTS = new Set(['www', 'api', 'app', 'help', 'support', 'careers', 'jobs']);

export function boardFromUrl(url: string): BoardId | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  const rest = `${host}${u.pathname}${u.search}`;
  for (const [re, vendor] of BY_PATH) {
    const m = re.exec(rest);
    if (m?.[1]) return clean(vendor, decodeURIComponent(m[1]));
  }
  for (const [re, vendor] of BY_HOST) {
    const m = re.exec(host);
    if (m?.[1] && !VENDOR_HOSTS.has(m[1])) return clean(vendor, m[1]);
  }
  const wd = /^([a-z0-9-]+)\.(wd\d+)\.myworkdayjobs\.com$/.exec(host);
  const site = u.pathname.split('/').filter((s) => s && !/^[a-z]{2}-[A-Z]{2}$/.test(s))[0];
  if (wd?.[1] && wd[2] && site) return clean('workday', `${wd[1]}.${wd[2]}/${site}`);
  return null;
}

function clean(vendor: RegistryVendor, board: string): BoardId | null {
  const b = board.trim();
  if (!b || /\s/.test(b) || ['embed', 'jobs', 'api', 'v1', 'v0'].includes(b.toLowerCase())) return null;
  return { vendor, board: b };
}
