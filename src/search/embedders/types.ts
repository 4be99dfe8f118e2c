/**
 * An embedder turns texts into unit-length vectors. Its `id` names the model and everything that shapes its
 * output (lexicon, weighting): stored embeddings carry it, so a changed id means every row is re-embedded.
 */
export interface Embedder {
  /** Model identity, e.g. `static:wink-sg-100d:3f9a…` or `openai:text-embedding-3-small`. */
  readonly id: string;
  /** Vector length; undefined until known (an OpenAI-compatible model reports it with its first answer). */
  readonly dimension: number | undefined;
  /** Largest batch one embed() call should carry; callers chunk to it. */
  readonly maxBatch: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Loads what embed() needs (local model data) ahead of the first call; no network. */
  prepare?(): Promise<void>;
}

/** Scales v in place to unit length (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  }
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
