import { Marked, type Tokens } from 'marked';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const SAFE_URL = /^(https?:|mailto:)/i;

/**
 * Job descriptions are stored as light markdown (src/sources/normalize/description.ts) from text the postings' authors wrote:
 * rendered with marked, with every raw HTML token escaped to text, links kept only to http(s) and mailto (a
 * javascript: URL is just its text), and images shown as links (the site loads nothing from third parties).
 */
const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      if (!SAFE_URL.test(token.href)) return text;
      return `<a href="${escapeHtml(token.href)}" rel="nofollow noopener">${text}</a>`;
    },
    image(token: Tokens.Image) {
      const label = escapeHtml(token.text || token.href);
      return SAFE_URL.test(token.href)
        ? `<a href="${escapeHtml(token.href)}" rel="nofollow noopener">${label}</a>`
        : label;
    },
  },
});

/** A description's markdown as HTML safe to put in a page. */
export function renderMarkdown(text: string): string {
  return markdown.parse(text, { async: false }) as string;
}
