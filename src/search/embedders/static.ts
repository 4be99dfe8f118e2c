import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../package-root.js';
import { type Embedder, normalize } from './types.js';
import {
  loadWordVectors,
  loadWordVectorsAsync,
  WORD_VECTORS_NAME,
  type WordVectors,
} from './word-vectors.js';

/**
 * The bundled, offline embedder: SIF-weighted averages of pretrained word vectors, sharpened by a domain lexicon.
 *
 * Why each step (measured on job titles, see docs/search.md):
 * - SIF weights a/(a+p(w)) with p(w) from the vocabulary's frequency rank (Zipf) mute function words.
 * - Lexicon weights mute generic title words ("senior", "engineer", "manager") that otherwise made random title
 *   pairs score ~0.49.
 * - Lexicon terms give out-of-vocabulary or wrong-sense tech words (kubernetes, llm, typescript) an
 *   in-vocabulary meaning; other unknown words (company names) get a stable pseudo-random vector so an exact
 *   shared rare word still counts.
 * - Role-taxonomy phrases add a concept vector, so "engineer embedded with customers" lands near FDE titles.
 * - The direction shared by generic titles (the common component) is projected out of every sentence.
 */

const ALGORITHM_VERSION = 1;
/** SIF smoothing constant (Arora et al. 2017 use 1e-3 to 1e-4). */
const SIF_A = 1e-3;
const ROLE_CONCEPT_WEIGHT = 1.2;
const UNKNOWN_WORD_WEIGHT = 0.9;

export interface Lexicon {
  aliases: Record<string, string>;
  terms: Record<string, string>;
  weights: Record<string, number>;
  roles: Record<string, { phrases: string[]; concept: string }>;
  calibration: string[];
}

/** Read from the sources (its exact bytes are part of the model identity), also when running the bundle. */
export function readLexicon(): { lexicon: Lexicon; text: string } {
  const text = readFileSync(packagePath('src/search/embedders/lexicon.json'), 'utf8');
  // Its maps are looked up with words from queries: null-prototype objects, so "constructor" is just a word.
  const lexicon = JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.assign(Object.create(null), value)
      : value,
  ) as Lexicon;
  return { lexicon, text };
}

/** Lowercases, strips accents and splits into tokens, keeping "node.js", "c++", "pre-sales" whole. */
export function rawTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return folded.match(/[a-z0-9]+(?:[-.][a-z0-9]+)*[+#]*/g) ?? [];
}

/** Text analysis shared by the embedder and query understanding, so both read words the same way. */
export class Analyzer {
  private readonly rolePhrases: { role: string; tokens: string[] }[] = [];

  constructor(
    readonly lexicon: Lexicon,
    private readonly known: (token: string) => boolean,
  ) {
    for (const [role, def] of Object.entries(lexicon.roles)) {
      for (const phrase of def.phrases) this.rolePhrases.push({ role, tokens: this.tokens(phrase) });
    }
    // Longest phrases first, so "customer success manager" wins over "customer success".
    this.rolePhrases.sort((a, b) => b.tokens.length - a.tokens.length);
  }

  /** Tokens after alias expansion; a hyphenated word unknown as a whole is split into its parts. */
  tokens(text: string): string[] {
    const out: string[] = [];
    for (const raw of rawTokens(text)) {
      const alias = this.lexicon.aliases[raw];
      if (alias !== undefined) {
        out.push(...alias.split(' '));
      } else if (raw.includes('-') && !this.known(raw)) {
        for (const part of raw.split('-')) {
          const a = this.lexicon.aliases[part];
          out.push(...(a !== undefined ? a.split(' ') : [part]));
        }
      } else {
        out.push(raw);
      }
    }
    return out;
  }

  /** Role-taxonomy categories named in the tokens, in order of first mention. */
  roles(tokens: readonly string[]): string[] {
    const found: string[] = [];
    for (const { role, tokens: phrase } of this.rolePhrases) {
      if (found.includes(role) || phrase.length === 0) continue;
      for (let i = 0; i + phrase.length <= tokens.length; i++) {
        let match = true;
        for (let j = 0; j < phrase.length && match; j++) match = tokens[i + j] === phrase[j];
        if (match) {
          found.push(role);
          break;
        }
      }
    }
    return found;
  }
}

/** The static model identity: the word vectors, the algorithm version and the lexicon's exact content. */
export function staticModelId(lexiconText = readLexicon().text): string {
  const digest = createHash('sha256')
    .update(`${ALGORITHM_VERSION}\n${lexiconText}`)
    .digest('hex')
    .slice(0, 12);
  return `static:${WORD_VECTORS_NAME}:${digest}`;
}

const loaded = new Map<string, StaticEmbedder>();
const loading = new Map<string, Promise<StaticEmbedder>>();

/** Told before the word-vector cache is built (once per cache directory, a few seconds), and when it is done. */
export interface VectorBuildListener {
  building(path: string): void;
  built(path: string, ms: number): void;
}

/**
 * The static embedder with its identity known at once and its vectors loaded on first use, so processes that
 * never embed (a CLI command, a test without search) never read the cache or build it. The load is
 * asynchronous: building the cache on a fresh data directory gives the event loop a turn between slices, so a
 * server keeps answering while it runs; embed() calls wait for it.
 */
export class LazyStaticEmbedder implements Embedder {
  readonly id = staticModelId();
  readonly dimension = 100;
  readonly maxBatch = 10_000;
  constructor(
    private readonly cacheDir: string,
    private readonly listener?: VectorBuildListener,
  ) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return (await StaticEmbedder.loadAsync(this.cacheDir, this.listener)).embed(texts);
  }

  async prepare(): Promise<void> {
    await StaticEmbedder.loadAsync(this.cacheDir, this.listener);
  }
}

export class StaticEmbedder implements Embedder {
  readonly maxBatch = 10_000;
  readonly dimension: number;
  readonly analyzer: Analyzer;
  private readonly termVectors = new Map<string, Float32Array>();
  private readonly roleVectors = new Map<string, Float32Array>();
  private readonly common: Float32Array;
  private readonly harmonic: number;
  private readonly scratch: Float32Array;

  private constructor(
    readonly id: string,
    private readonly words: WordVectors,
    lexicon: Lexicon,
  ) {
    this.dimension = words.dims;
    this.scratch = new Float32Array(words.dims);
    this.harmonic = Math.log(words.count) + 0.5772;
    this.analyzer = new Analyzer(lexicon, (t) => words.rank(t) !== undefined || t in lexicon.terms);
    for (const [term, phrase] of Object.entries(lexicon.terms)) {
      this.termVectors.set(term, this.meanOf(phrase.split(' ')));
    }
    for (const [role, def] of Object.entries(lexicon.roles)) {
      this.roleVectors.set(role, this.meanOf(this.analyzer.tokens(def.concept)));
    }
    this.common = new Float32Array(words.dims);
    this.common.set(
      commonComponent(
        lexicon.calibration.map((t) => this.pooled(t)),
        words.dims,
      ),
    );
  }

  /**
   * Loads (or builds once) the word-vector cache in cacheDir; see word-vectors.ts for the costs. Memoised per
   * directory: every app built in one process (tests build many) shares one copy of the vectors.
   */
  static load(cacheDir: string): StaticEmbedder {
    const cached = loaded.get(cacheDir);
    if (cached) return cached;
    return StaticEmbedder.remember(cacheDir, loadWordVectors(cacheDir).vectors);
  }

  /** As load, but a build yields to the event loop between slices; concurrent callers share one load. */
  static loadAsync(cacheDir: string, listener?: VectorBuildListener): Promise<StaticEmbedder> {
    const cached = loaded.get(cacheDir);
    if (cached) return Promise.resolve(cached);
    let pending = loading.get(cacheDir);
    if (!pending) {
      const started = performance.now();
      let building: string | undefined;
      pending = loadWordVectorsAsync(cacheDir, {
        onBuild: (path) => {
          building = path;
          listener?.building(path);
        },
      })
        .then(({ vectors }) => {
          if (building) listener?.built(building, Math.round(performance.now() - started));
          return loaded.get(cacheDir) ?? StaticEmbedder.remember(cacheDir, vectors);
        })
        .finally(() => loading.delete(cacheDir));
      loading.set(cacheDir, pending);
    }
    return pending;
  }

  private static remember(cacheDir: string, vectors: WordVectors): StaticEmbedder {
    const { lexicon, text } = readLexicon();
    const embedder = new StaticEmbedder(staticModelId(text), vectors, lexicon);
    loaded.set(cacheDir, embedder);
    return embedder;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const v = this.pooled(text);
    let proj = 0;
    for (let d = 0; d < v.length; d++) proj += v[d]! * this.common[d]!;
    for (let d = 0; d < v.length; d++) v[d] = v[d]! - proj * this.common[d]!;
    return normalize(v);
  }

  /** The weighted sum of token and role-concept vectors, before common-component removal. */
  private pooled(text: string): Float32Array {
    const tokens = this.analyzer.tokens(text);
    const sum = new Float32Array(this.dimension);
    for (const token of tokens) {
      const extra = this.analyzer.lexicon.weights[token] ?? 1;
      const term = this.termVectors.get(token);
      if (term) {
        addScaled(sum, term, extra);
        continue;
      }
      const rank = this.words.rank(token);
      if (rank !== undefined) {
        const p = 1 / ((rank + 1) * this.harmonic);
        this.words.read(rank, this.scratch);
        addScaled(sum, this.scratch, (SIF_A / (SIF_A + p)) * extra);
      } else {
        addScaled(sum, hashedVector(token, this.dimension), UNKNOWN_WORD_WEIGHT * extra);
      }
    }
    for (const role of this.analyzer.roles(tokens)) {
      addScaled(sum, this.roleVectors.get(role)!, ROLE_CONCEPT_WEIGHT);
    }
    return sum;
  }

  private meanOf(words: readonly string[]): Float32Array {
    const sum = new Float32Array(this.dimension);
    for (const w of words) {
      const rank = this.words.rank(w);
      if (rank === undefined) continue;
      this.words.read(rank, this.scratch);
      addScaled(sum, this.scratch, 1);
    }
    return normalize(sum);
  }
}

function addScaled(into: Float32Array, v: Float32Array, w: number): void {
  for (let d = 0; d < into.length; d++) into[d] = into[d]! + v[d]! * w;
}

/** A stable unit vector for an unknown word (FNV-1a seed, mulberry32 stream). */
export function hashedVector(token: string, dims: number): Float32Array {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  const v = new Float32Array(dims);
  let s = h >>> 0;
  for (let d = 0; d < dims; d++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    v[d] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  return normalize(v);
}

/** First right singular vector of the (uncentred) rows, by power iteration: the SIF "common component". */
function commonComponent(rows: Float32Array[], dims: number): Float32Array {
  let u: Float32Array = new Float32Array(dims).fill(1 / Math.sqrt(dims));
  for (let iter = 0; iter < 50; iter++) {
    const next = new Float32Array(dims);
    for (const r of rows) {
      let p = 0;
      for (let d = 0; d < dims; d++) p += r[d]! * u[d]!;
      addScaled(next, r, p);
    }
    u = normalize(next);
  }
  return u;
}
