// The one way rich text (a richtext component's `definition.html`) reaches the page: the board,
// the editor and the print view all pass it through here, and nothing can turn it off. DOMPurify
// keeps the tags the editor writes and drops everything else (scripts, handlers, styles, forms,
// frames, SVG, MathML); links keep only https:, mailto: and this site's paths, and open nothing
// with a reference back to the board (rel="noopener noreferrer").
import DOMPurify from 'dompurify';
import { isAllowedMediaUrl } from '../../schemas/mediaUrl.ts';

const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'a', 'span'];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'start'];
const MAILTO = /^mailto:[^\s\\<>"'`]+$/i;

/** Where a link may lead: https:, mailto:, or a path of this site. */
export const isAllowedLinkUrl = (href: string) => isAllowedMediaUrl(href) || MAILTO.test(href);

// an instance of its own: its hook and settings touch no other use of DOMPurify
const purifier = DOMPurify(typeof window === 'undefined' ? undefined : window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof Element) || node.tagName !== 'A') return;
  const href = node.getAttribute('href');
  if (href !== null && !isAllowedLinkUrl(href)) node.removeAttribute('href');
  if (node.getAttribute('target') !== '_blank') node.removeAttribute('target');
  node.setAttribute('rel', 'noopener noreferrer');
});

const SETTINGS = {
  ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, ALLOW_UNKNOWN_PROTOCOLS: false,
  // DOMPurify's own rule with https: and mailto: as the only schemes (it is also applied to plain
  // values such as target="_blank"); the hook above then holds hrefs to isAllowedLinkUrl
  ALLOWED_URI_REGEXP: /^(?:https:|mailto:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i, RETURN_TRUSTED_TYPE: false, WHOLE_DOCUMENT: false,
} as const;

/** Rich text made safe to show: what is left cannot run anything. */
export function sanitizeHtml(html: unknown): string {
  if (typeof html !== 'string' || !html) return '';
  return purifier.sanitize(html, SETTINGS) as string;
}
