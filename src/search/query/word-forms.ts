/**
 * Words as people type them: a compound written hyphenated, spaced or joined ("Pre-Sales", "pre sales",
 * "presales") is one word, and so is its abbreviation where one is common ("GTM" for go-to-market). Each form
 * below is rewritten to its joined word before text becomes lexemes, in job titles and company names as they are
 * indexed and in queries alike, so every form matches every other.
 *
 * This module is the one place the forms live. The in-memory keyword index applies them through
 * keyword-index/lexemes.ts (`wordsOf`, `lexemes`); a PostgreSQL full-text path gets the same lexemes from
 * `to_tsvector('english', joinWordForms(text))` and `websearch_to_tsquery('english', joinWordForms(query))`.
 */

/** Joined word -> the other ways of writing it, as lower-case words (any run of spaces or dashes between them). */
export const FORMS: Record<string, readonly string[]> = {
  presales: ['pre sales', 'pre sale', 'presale'],
  postsales: ['post sales', 'post sale', 'postsale'],
  gotomarket: ['go to market', 'gtm'],
  ecommerce: ['e commerce'],
  fullstack: ['full stack'],
  frontend: ['front end'],
  backend: ['back end'],
  onboarding: ['on boarding'],
  cofounder: ['co founder'],
  devops: ['dev ops'],
  mlops: ['ml ops'],
  setup: ['set up'],
  onsite: ['on site'],
};

/** A run of the text that is one word: [start, end) in UTF-16 code units, and the joined word. */
export interface FormSpan {
  start: number;
  end: number;
  word: string;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** What may stand between the parts of a compound: spaces, hyphens and dashes only ("Pre-Sales", "pre – sales"). */
const JOINER = /^[\s\-\u2010-\u2015]+$/u;

/** First word -> the forms starting with it, longest first, as word lists. */
const BY_FIRST = new Map<string, { parts: string[]; word: string }[]>();
for (const [word, forms] of Object.entries(FORMS)) {
  for (const form of forms) {
    const parts = form.split(' ');
    const list = BY_FIRST.get(parts[0]!) ?? [];
    list.push({ parts, word });
    BY_FIRST.set(parts[0]!, list);
  }
}
for (const list of BY_FIRST.values()) list.sort((a, b) => b.parts.length - a.parts.length);

/** Where the text writes a compound in another form than its joined word, in text order. */
export function wordFormSpans(text: string): FormSpan[] {
  if (!mayHoldForm(text)) return [];
  const words = [...text.matchAll(WORD)];
  const lower = words.map((m) => m[0].toLowerCase());
  const out: FormSpan[] = [];
  for (let i = 0; i < words.length; i++) {
    const forms = BY_FIRST.get(lower[i]!);
    if (!forms) continue;
    const form = forms.find((f) =>
      f.parts.every(
        (p, j) =>
          lower[i + j] === p &&
          (j === 0 || JOINER.test(text.slice(end(words[i + j - 1]!), words[i + j]!.index))),
      ),
    );
    if (!form) continue;
    const last = words[i + form.parts.length - 1]!;
    out.push({ start: words[i]!.index, end: end(last), word: form.word });
    i += form.parts.length - 1;
  }
  return out;
}

/** The text with every compound joined ("Solutions Engineer, Pre-Sales" -> "Solutions Engineer, presales"). */
export function joinWordForms(text: string): string {
  const spans = wordFormSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + s.word;
    at = s.end;
  }
  return out + text.slice(at);
}

const end = (m: RegExpMatchArray) => m.index! + m[0].length;

/** A cheap test before the word walk: most titles hold no first word of any form. */
const FIRST = new RegExp(
  `(?:^|[^\\p{L}\\p{N}])(?:${[...BY_FIRST.keys()].join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);
function mayHoldForm(text: string): boolean {
  return FIRST.test(text);
}
