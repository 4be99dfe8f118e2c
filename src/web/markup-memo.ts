import { LRUCache } from 'lru-cache';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * A fragment's markup remembered by a key that covers everything the fragment shows: a hit is the markup that
 * rendering the same facts would give, so the memo cannot be stale, only miss. Bounded in bytes (UTF-16 length of
 * key and markup, twice for their two bytes a unit), least recently used first out.
 */
export class MarkupMemo<Facts> {
  private readonly memo: LRUCache<string, string>;

  /**
   * @param maxBytes the most the keys and markup held may take, in bytes
   * @param keyOf every fact the fragment shows, as one string that no other facts give (JSON of them, say)
   * @param view the fragment
   */
  constructor(
    maxBytes: number,
    private readonly keyOf: (facts: Facts) => string,
    private readonly view: (facts: Facts) => VNode,
  ) {
    this.memo = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (markup, key) => 2 * (markup.length + key.length),
    });
  }

  render(facts: Facts): string {
    const key = this.keyOf(facts);
    let markup = this.memo.get(key);
    if (markup === undefined) {
      markup = renderToString(this.view(facts));
      this.memo.set(key, markup);
    }
    return markup;
  }
}
