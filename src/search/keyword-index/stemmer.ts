import { stem as porter2 } from 'porter2';

/**
 * The English Snowball stemmer (Porter2), as PostgreSQL's `english_stem` dictionary applies it, and that
 * dictionary's stop words: the in-memory keyword index (keyword-index.ts) turns words into the same lexemes as
 * `to_tsvector('english', …)` for ordinary words. Checked against the database on the 321k words of the bundled
 * word-vector vocabulary: 16 differ, short words with a doubled consonant before -ed/-ing ("added" → "ad" here,
 * "add" in PostgreSQL's older Snowball release); test/search/keyword-index.test.ts compares the common vocabulary.
 */

/** PostgreSQL's tsearch_data/english.stop. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
    'was were be been being have has had having do does did doing a an the and but if or because as until while ' +
    'of at by for with about against between into through during before after above below to from up down in out ' +
    'on off over under again further then once here there when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very s t can will just don should now'
  ).split(' '),
);

/** A lower-case word's stem (the `porter2` package implements Snowball's English stemmer). */
export function stem(word: string): string {
  return porter2(word);
}
