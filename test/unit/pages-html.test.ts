import { describe, expect, it } from 'vitest';
import { escapeHtml, Html, type HtmlValue, html } from '../../src/pages/html.js';

describe('the pages’ HTML template', () => {
  it('escapes every character that could end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  it('escapes interpolated text in content and in attributes, and leaves the template itself alone', () => {
    const name = '"><img src=x onerror=alert(1)>';
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</p>',
    );
  });

  it('keeps markup made by html, escapes each item of an array, and drops null, undefined and false', () => {
    const items = ['<b>', html`<i>${'&'}</i>`];
    expect(html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`.text).toBe(
      '<ul><li>&lt;b&gt;</li><li><i>&amp;</i></li></ul>',
    );
    expect(html`[${null}${undefined}${false}${0}${10n}]`.text).toBe('[010]');
  });

  it('does not escape twice: escaped text nested in another template stays as it was', () => {
    const inner = html`${'a & b'}`;
    expect(html`<p>${inner}</p>`.text).toBe('<p>a &amp; b</p>');
  });

  it('refuses values that would print as something else, and markup not made by html', () => {
    expect(() => html`${{ toString: () => '<b>' } as unknown as HtmlValue}`).toThrow(TypeError);
    expect(() => html`${true as unknown as HtmlValue}`).toThrow(TypeError);
    const forged = Object.create(Html.prototype, { text: { value: '<script>' } }) as Html;
    expect(() => html`${forged}`).toThrow(TypeError);
    expect(() => new Html(Symbol('html') as never, '<script>')).toThrow(TypeError);
  });
});
