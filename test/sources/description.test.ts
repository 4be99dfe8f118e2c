import { describe, expect, it } from 'vitest';
import { descriptionFromHtml, leverList } from '../../src/sources/normalize/description.js';

describe('description HTML becomes clean markdown text', () => {
  it.each([
    [
      '<ul><li><p>two</p><p>paras</p></li><li><p>next</p></li></ul><p>after</p>',
      '- two paras\n- next\n\nafter',
    ],
    [
      '<ul><li><p>Build</p><ul><li><p>in Python</p></li></ul></li><li><p></p></li><li><p>&nbsp;</p></li><li>z</li></ul>',
      '- Build\n  - in Python\n- z',
    ],
    ['<ul><li><p><br></p><p>After an empty paragraph</p></li></ul>', '- After an empty paragraph'],
    ['<ol><li><p>first</p></li><li><p>second</p></li></ol>', '1. first\n2. second'],
    [
      '<div>Line</div><div><b>Bold</b> line</div><div><br></div><div>Next paragraph</div>',
      'Line\nBold line\n\nNext paragraph',
    ],
    [
      '<p>See <a href="https://x.test/apply">our site</a> for *details* and snake_case.</p>',
      'See our site for *details* and snake_case.',
    ],
    ['<h1><em>Title</em></h1><p><br></p><p>&nbsp;</p><p>Body<br>line two</p>', '# Title\n\nBody\nline two'],
    ['<script>alert(1)</script><style>p{}</style><p>Kept</p><img src="x.png">', 'Kept'],
    ['', ''],
  ])('%s', (html, text) => {
    expect(descriptionFromHtml(html)).toBe(text);
  });

  it('renders Lever lists as a heading and bullets, with or without their <ul>', () => {
    expect(leverList('<b>Requirements</b>', '<li>SQL</li><li>APIs</li>')).toBe(
      '## Requirements\n- SQL\n- APIs',
    );
    expect(leverList(null, '<div><ul><li>SQL</li></ul></div>')).toBe('- SQL');
    expect(leverList('Empty', '')).toBe('## Empty');
  });
});
