// Rich text and component URLs against a corpus of XSS payloads (tests/support/xssPayloads.ts):
// what sanitizeHtml leaves holds nothing that runs, and the URL rule lets none of the hostile
// URLs through while https: URLs and this site's paths pass.
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { isAllowedLinkUrl, sanitizeHtml } from '../../../src/components/richtext/sanitizeHtml.ts';
import { isAllowedMediaUrl, mediaUrlOrigin, MEDIA_URL_PATTERN } from '../../../src/schemas/mediaUrl.ts';
import { XSS_HTML, XSS_URLS } from '../../support/xssPayloads.ts';

const EXECUTABLE_TAGS = ['script', 'iframe', 'object', 'embed', 'svg', 'math', 'style', 'link', 'meta', 'base', 'form', 'input', 'button', 'select', 'textarea', 'img', 'video', 'audio', 'source', 'template', 'frameset', 'body', 'details', 'marquee', 'table', 'td'];

/** Everything in sanitised HTML that could run or load something. */
function hazardsOf(html: string): string[] {
  const root = document.createElement('div');
  root.innerHTML = html;
  const hazards: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (EXECUTABLE_TAGS.includes(tag)) hazards.push(`<${tag}>`);
    for (const { name, value } of Array.from(element.attributes)) {
      if (name.startsWith('on')) hazards.push(`${tag}[${name}]`);
      if (['style', 'srcdoc', 'src', 'srcset', 'action', 'formaction', 'background', 'ping', 'xlink:href'].includes(name)) hazards.push(`${tag}[${name}]`);
      if (name === 'href' && !isAllowedLinkUrl(value)) hazards.push(`${tag}[href=${value}]`);
      if (name === 'target' && value !== '_blank') hazards.push(`${tag}[target=${value}]`);
    }
    if (tag === 'a' && element.getAttribute('rel') !== 'noopener noreferrer') hazards.push('a without rel');
  }
  return hazards;
}

describe('sanitizeHtml', () => {
  it('is given at least a hundred hostile payloads', () => {
    expect(XSS_HTML.length + XSS_URLS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(XSS_HTML).size).toBe(XSS_HTML.length);
  });

  it.each(XSS_HTML.map((payload) => [payload]))('leaves nothing that runs of %s', (payload) => {
    const clean = sanitizeHtml(payload);
    expect(hazardsOf(clean)).toEqual([]);
    expect(clean.toLowerCase()).not.toMatch(/javascript:|vbscript:|<script|onerror=|onload=/);
    // sanitising again changes nothing: no mutation brings anything back
    expect(sanitizeHtml(clean)).toBe(clean);
  });

  it.each(XSS_URLS.map((url) => [url]))('drops a link to %j', (url) => {
    const clean = sanitizeHtml(`<a href="${url.replace(/"/g, '&quot;')}">x</a>`);
    expect(hazardsOf(clean)).toEqual([]);
    expect(clean).not.toContain('href=');
  });

  it('keeps what the editor writes, links made safe', () => {
    const html = '<h2>Title</h2><p><strong>bold</strong> <em>it</em> <s>old</s> <a href="https://example.com/a" target="_blank">web</a> <a href="mailto:a@example.com">mail</a> <a href="/performance-dashboard/1">board</a></p><ul><li>one</li></ul><ol start="3"><li>three</li></ol><blockquote>q</blockquote><pre><code>x</code></pre><hr>';
    const clean = sanitizeHtml(html);
    expect(clean).toContain('<h2>Title</h2>');
    expect(clean).toContain('<strong>bold</strong>');
    expect(clean).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">web</a>');
    expect(clean).toContain('<a href="mailto:a@example.com" rel="noopener noreferrer">mail</a>');
    expect(clean).toContain('<a href="/performance-dashboard/1" rel="noopener noreferrer">board</a>');
    expect(clean).toContain('<ol start="3">');
    expect(hazardsOf(clean)).toEqual([]);
  });

  it('answers an empty string for anything that is not text', () => {
    expect(sanitizeHtml(undefined)).toBe('');
    expect(sanitizeHtml({ html: '<b>x</b>' })).toBe('');
  });
});

describe('the component URL rule', () => {
  it.each(XSS_URLS.map((url) => [url]))('refuses %j', (url) => {
    expect(isAllowedMediaUrl(url)).toBe(false);
  });

  it.each([
    'https://example.com/a.png', 'https://cdn.example.com:8443/v/clip.mp4?x=1#t=2', 'https://example.com', '/logo.svg', '/api/files/1?size=2', '/',
  ])('allows %s', (url) => {
    expect(isAllowedMediaUrl(url)).toBe(true);
  });

  it('is the pattern the server validates with (ajv, unicode)', () => {
    const validate = new Ajv({ allErrors: true }).compile({ type: 'string', pattern: MEDIA_URL_PATTERN });
    for (const url of XSS_URLS) expect(validate(url), url).toBe(false);
    expect(validate('https://example.com/a.png')).toBe(true);
    expect(validate('/a.png')).toBe(true);
  });

  it('refuses what is too long or not text', () => {
    expect(isAllowedMediaUrl(`https://example.com/${'a'.repeat(2000)}`)).toBe(false);
    expect(isAllowedMediaUrl(42)).toBe(false);
  });

  it('tells the origin a URL loads from', () => {
    expect(mediaUrlOrigin('https://example.com:8443/x', 'https://app.example')).toBe('https://example.com:8443');
    expect(mediaUrlOrigin('/x', 'https://app.example')).toBe('https://app.example');
  });
});
