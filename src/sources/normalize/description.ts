/**
 * A posting's description HTML → the stored text: light markdown (headings `##`, bullets `-` indented per level,
 * numbered lists, tables as pipe rows) without inline emphasis, links' targets or markdown escapes, so that it
 * reads as plain text, indexes as words and renders as markdown alike.
 *
 * node-html-markdown does the structural work (nested lists, tables, `<br>`, entities). Vendors' editors wrap
 * each list item's text in its own `<p>` (Ashby: `<li><p>…</p></li>`), so a paragraph inside a list item gets
 * single line breaks instead of blank lines around it; empty paragraphs (`<p><br></p>`) and whitespace-only lines
 * collapse, and a run of blank lines becomes one.
 */
import { createRequire } from 'node:module';
import type { NodeHtmlMarkdown as Converter, TranslatorConfigObject } from 'node-html-markdown';

// Loaded on first use, like cheerio (html.ts): only pipeline steps convert descriptions.
const require = createRequire(import.meta.url);
let converter: Converter | undefined;

/** Matches nothing: the stored text is not re-parsed as markdown, so characters are kept as written. */
const NO_ESCAPE: [RegExp, string] = [/(?!)/g, ''];

interface Parented {
  tagName?: string;
  parentNode?: Parented | null;
}

function insideListItem(node: Parented): boolean {
  for (let n = node.parentNode; n; n = n.parentNode) if (n.tagName === 'LI') return true;
  return false;
}

function build(): Converter {
  const { NodeHtmlMarkdown } = require('node-html-markdown') as typeof import('node-html-markdown');
  const inline = { postprocess: ({ content }: { content: string }) => content };
  const translators: TranslatorConfigObject = {
    // A list item's paragraphs are its text: the first on the bullet's line, the next ones after it.
    p: ({ node }) =>
      (node as Parented).parentNode?.tagName !== 'LI'
        ? { surroundingNewlines: 2 }
        : { surroundingNewlines: false, prefix: node.previousElementSibling ? ' ' : '' },
    // Editors that write a <div> per line (Lever) mark paragraphs with an empty <div><br></div> between them.
    div: { surroundingNewlines: 1 },
    // A line break inside a list item would leave its continuation outside the item.
    br: ({ node }) => ({ content: insideListItem(node) ? ' ' : '\n', recurse: false }),
    'strong,b,em,i,u,del,s,strike,a': inline,
    img: { ignore: true },
  };
  return new NodeHtmlMarkdown(
    {
      bulletMarker: '-',
      maxConsecutiveNewlines: 2,
      globalEscape: NO_ESCAPE,
      lineStartEscape: NO_ESCAPE,
      keepDataImages: false,
    },
    translators,
  );
}

/** Description HTML (entities already decoded once where the vendor escapes them) → clean markdown text. */
export function descriptionFromHtml(html: string | null | undefined): string {
  if (!html || html.trim() === '') return '';
  converter ??= build();
  return tidy(converter.translate(html));
}

/**
 * Lines trimmed at the end (markdown hard breaks included), lone bullets (empty list items) dropped, lines of
 * only spaces or NBSPs blank, at most one blank line in a row. Leading spaces stay: they carry list nesting.
 */
export function tidy(markdown: string): string {
  const out: string[] = [];
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw
      .replace(/[\u00a0\u2007\u202f]/g, ' ')
      .replace(/[ \t]+$/, '')
      .replace(/^(\s*(?:-|\d+\.)) {2,}/, '$1 ');
    if (/^\s*([-*•·]|\d+\.)\s*$/.test(line)) continue;
    if (line.trim() === '') {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      continue;
    }
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

/**
 * Lever's `lists`: a title (sometimes HTML) and `<li>` items, usually without their `<ul>`, rendered as a heading
 * and a bullet list.
 */
export function leverList(title: string | null | undefined, itemsHtml: string | null | undefined): string {
  const text = descriptionFromHtml(title).replace(/\s+/g, ' ').trim();
  const heading = text ? `## ${text}` : '';
  const wrapped = itemsHtml && !/<(ul|ol)\b/i.test(itemsHtml) ? `<ul>${itemsHtml}</ul>` : itemsHtml;
  const items = descriptionFromHtml(wrapped);
  return [heading, items].filter((s) => s !== '').join('\n');
}
