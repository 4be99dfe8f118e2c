/** Lower case, '&' → 'and', punctuation that joins words → spaces, whitespace collapsed. */
export function normalizeTitle(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-_.\u2010\u2011]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
