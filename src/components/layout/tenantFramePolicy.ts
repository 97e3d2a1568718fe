// Which pages a board may frame: the server's Content-Security-Policy allows this site and https:
// pages in general (server/api/securityHeaders.ts: it answers before it knows the tenant); once the
// tenant is known, a second policy in a <meta> narrows `frame-src` to this site and the tenant's
// list of origins (tenant attribute `iframe_origins`). A browser enforces both policies, so what a
// frame may load is exactly their intersection. A policy cannot be taken back once added: when
// another tenant signs in on the same page, the page reloads to drop the first one's. The list
// itself: src/schemas/frameOrigins.ts.

const MARK = 'data-tenant-frame-policy';

/** Adds the tenant's frame policy to the document; answers false when an earlier one differs (the page must reload). */
export function applyTenantFramePolicy(origins: readonly string[], doc: Document = document): boolean {
  const content = `frame-src ${["'self'", ...origins].join(' ')}`;
  const present = doc.head.querySelector<HTMLMetaElement>(`meta[${MARK}]`);
  if (present) return present.content === content;
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = content;
  meta.setAttribute(MARK, '');
  doc.head.appendChild(meta);
  return true;
}
