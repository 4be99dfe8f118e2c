/**
 * Tab-separated text as the replica's bulk load reads it: one text column per field, with backslash, tab,
 * newline and carriage return escaped (untsv reverses it) so fields arrive exactly as stored; `\N` is SQL NULL.
 */

/** A text column as one tab-separated field (NULL stays NULL). */
export const TSV_FIELD = (col: string) =>
  `replace(replace(replace(replace(${col}, '\\', '\\\\'), E'\t', '\\t'), E'\n', '\\n'), E'\r', '\\r')`;

/** The field written for SQL NULL: an escaped text never is exactly this (its backslash would be doubled). */
export const TSV_NULL = '\\N';

const UNESCAPE: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

export function untsv(field: string): string {
  return field.includes('\\') ? field.replace(/\\(.)/g, (_m, c: string) => UNESCAPE[c] ?? c) : field;
}

/**
 * The rows of a tab-separated chunk, each field a string of its own. Split from the chunk's string, a field would
 * be a view of it (V8 slices substrings of 13+ characters), and one id, title or URL the index keeps would keep
 * the whole chunk alive (seen in a heap snapshot after a load from the database).
 * Decoded from the chunk's UTF-8 bytes instead, where tab and newline bytes never occur inside a character.
 */
export function tsvRows(chunk: string): string[][] {
  const bytes = Buffer.from(chunk, 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const b = i === bytes.length ? 0x0a : bytes[i]!;
    if (b !== 0x09 && b !== 0x0a) continue;
    row.push(bytes.toString('utf8', start, i));
    start = i + 1;
    if (b === 0x0a) {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
