/**
 * ATS detection on one fetched page (docs/sources.md): the page's final URL, then <a href>, <iframe src>,
 * <script src> and <link href>, then inline scripts and JSON for known API hosts and embed markers. Pure: it only
 * reads HTML; validation against the vendor API happens in discover.ts.
 */
import { loadHtml } from '../../sources/normalize/html.js';
import type { Provider } from '../../sources/types.js';
import type { BoardEvidence } from './types.js';

export interface BoardCandidate {
  provider: Provider;
  token: string;
  /** The URL or snippet the token came from; an EU host here selects the vendor's EU API. */
  source: string;
  evidence: BoardEvidence;
}

interface Pattern {
  provider: Provider;
  re: RegExp;
  /** Path words that are not board tokens (embed endpoints, per-job short links, API prefixes). */
  notTokens?: string[];
  decode?: boolean;
  /** Builds the token from the match when it spans several groups (Workday: tenant, data centre, site). */
  build?: (m: RegExpMatchArray) => string;
}

const TOKEN = '([A-Za-z0-9_.-]+)';
/** Subdomains that belong to the vendor itself (marketing, help, assets), never a company's board. */
const VENDOR_LABELS = [
  'www',
  'api',
  'app',
  'help',
  'support',
  'docs',
  'static',
  'cdn',
  'assets',
  'blog',
  'status',
];
/** Vendors whose board is a company subdomain: `{t}.jobs.personio.de`, `{t}.bamboohr.com`, `{t}.breezy.hr`... */
const SUBDOMAIN_VENDORS: Pattern[] = [
  { provider: 'personio', re: /\b([a-z0-9-]+)\.jobs\.personio\.(?:de|com)/gi, notTokens: VENDOR_LABELS },
  { provider: 'bamboohr', re: /\b([a-z0-9-]+)\.bamboohr\.com\/(?:careers|jobs)/gi, notTokens: VENDOR_LABELS },
  { provider: 'breezy', re: /\b([a-z0-9-]+)\.breezy\.hr/gi, notTokens: VENDOR_LABELS },
  { provider: 'pinpoint', re: /\b([a-z0-9-]+)\.pinpointhq\.com/gi, notTokens: VENDOR_LABELS },
];
const PATTERNS: Pattern[] = [
  {
    provider: 'greenhouse',
    re: new RegExp(`boards-api(?:\\.eu)?\\.greenhouse\\.io/v1/boards/${TOKEN}`, 'gi'),
  },
  {
    provider: 'greenhouse',
    re: /(?:job-boards|boards)(?:\.eu)?\.greenhouse\.io\/(?:embed\/job_(?:board(?:\/js)?|app)\/?\?(?:[^"'\s<>]*&(?:amp;)?)?for=)?([A-Za-z0-9_-]+)/gi,
    notTokens: ['embed', 'v1'],
  },
  {
    provider: 'lever',
    re: new RegExp(`(?:jobs|api)(?:\\.eu)?\\.lever\\.co/(?:v0/postings/)?${TOKEN}`, 'gi'),
    notTokens: ['v0'],
  },
  {
    provider: 'ashby',
    re: /(?:api\.ashbyhq\.com\/posting-api\/job-board|jobs\.ashbyhq\.com)\/([^/?#"'\s<>]+)/gi,
    notTokens: ['api', 'embed'],
    decode: true,
  },
  { provider: 'workable', re: /apply\.workable\.com\/api\/v1\/widget\/accounts\/([A-Za-z0-9_-]+)/gi },
  {
    provider: 'workable',
    re: /apply\.workable\.com\/([A-Za-z0-9_-]+)/gi,
    notTokens: ['j', 'api', 'assets', 'static'],
  },
  {
    provider: 'workable',
    re: /\b([a-z0-9-]+)\.workable\.com/gi,
    notTokens: ['www', 'apply', 'api', 'careers-page', 'jobs', 'resources', 'help', 'engineering'],
  },
  { provider: 'workable', re: /whr_embed\(\s*(\d+)/gi },
  {
    provider: 'smartrecruiters',
    re: /(?:careers|jobs)\.smartrecruiters\.com\/([A-Za-z0-9_-]+)|api\.smartrecruiters\.com\/v1\/companies\/([A-Za-z0-9_-]+)/gi,
    notTokens: ['api', 'static'],
  },
  {
    provider: 'recruitee',
    re: /\b([a-z0-9-]+)\.recruitee\.com/gi,
    notTokens: ['www', 'api', 'app', 'careers', 'docs', 'static', 'cdn'],
  },
  ...SUBDOMAIN_VENDORS,
  {
    // jobs.gem.com/{board}[/{posting}], or the Job Board API path /job_board/v0/{board}/.
    provider: 'gem',
    re: /(?:jobs\.gem\.com|api\.gem\.com\/job_board\/v0)\/([A-Za-z0-9_.-]+)/gi,
    notTokens: ['api', 'static', 'assets', 'job_board'],
  },
  {
    // ats.rippling.com/[{locale}/]{board}/jobs[/{posting}], or the board API path /ats/v2/board/{board}/.
    provider: 'rippling',
    re: /(?:ats\.rippling\.com\/(?:[a-z]{2}-[A-Z]{2}\/)?([A-Za-z0-9_.-]+)\/jobs|api\.rippling\.com\/platform\/api\/ats\/v\d\/board\/([A-Za-z0-9_.-]+))/g,
    notTokens: ['api', 'static'],
  },
  {
    // {tenant}.wd{N}.myworkdayjobs.com/[{lang}/]{site}, or the CXS API path /wday/cxs/{tenant}/{site}.
    provider: 'workday',
    re: /\b([a-z0-9-]{1,63})\.(wd\d{1,3})\.myworkdayjobs\.com\/(?:wday\/cxs\/[a-z0-9-]+\/|[a-z]{2}(?:-[a-z]{2})?\/)?([A-Za-z0-9_-]{1,100})/gi,
    notTokens: ['wday'],
    build: (m) => (m[3] ? `${m[1]?.toLowerCase()}.${m[2]?.toLowerCase()}/${m[3]}` : ''),
  },
];

function tokensIn(text: string, evidence: BoardEvidence, source: string): BoardCandidate[] {
  const out: BoardCandidate[] = [];
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      let token = p.build ? p.build(m) : (m[1] ?? m[2]);
      if (!token) continue;
      if (p.decode) {
        try {
          token = decodeURIComponent(token.replace(/\+/g, ' '));
        } catch {
          continue;
        }
      }
      token = token.replace(/\.+$/, '');
      if (token === '' || p.notTokens?.includes(token.toLowerCase())) continue;
      out.push({ provider: p.provider, token, source: source.length > 300 ? m[0] : source, evidence });
    }
  }
  return out;
}

/** Every ATS board the page points at, strongest evidence first, deduplicated by (provider, token). */
export function detectBoards(html: string, finalUrl: string): BoardCandidate[] {
  const $ = loadHtml(html, { xml: { xmlMode: false, decodeEntities: true } }, false);
  const found: BoardCandidate[] = [...tokensIn(finalUrl, 'final_url', finalUrl)];
  const attr = (selector: string, name: string, evidence: BoardEvidence) => {
    $(selector).each((_, el) => {
      const value = $(el).attr(name);
      if (value) found.push(...tokensIn(value, evidence, value));
    });
  };
  attr('a[href]', 'href', 'link');
  attr('iframe[src]', 'src', 'iframe');
  attr('script[src]', 'src', 'script');
  attr('link[href]', 'href', 'link');
  $('script:not([src])').each((_, el) => {
    const code = $(el).text();
    if (code) found.push(...tokensIn(code, 'inline', code));
  });
  const seen = new Set<string>();
  return found.filter((c) => {
    const key = `${c.provider}:${c.token.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
