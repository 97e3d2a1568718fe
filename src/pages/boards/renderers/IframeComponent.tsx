// A web page component: definition.url in a frame, always sandboxed. Pages of origins on the
// tenant's list (tenant attribute `iframe_origins`) run scripts with their own origin; this site's
// own pages are shown without scripts (a page of the same origin with both rights could lift its
// sandbox); any other page is not requested at all — the Content-Security-Policy's frame-src is this
// site and the list (src/components/layout/tenantFramePolicy.ts) — and neither is a URL the board
// may not load.
import { useContext, useEffect } from 'react';
import { ShellDataContext } from '../../../components/layout/shellData.ts';
import { trustedFrameOrigins } from '../../../schemas/frameOrigins.ts';
import { isAllowedMediaUrl, mediaUrlOrigin } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';

/** A frame that never says it loaded (a refused page) holds a print back this long at most. */
const LOAD_WAIT_MS = 5_000;

/** The tenant's trusted frame origins (none until the tenant names some). */
const useTrustedOrigins = (): readonly string[] => trustedFrameOrigins(useContext(ShellDataContext)?.tenant.attributes);

export function IframeComponent({ component, onReady, print }: RendererProps) {
  const { url } = definitionOf(component);
  const trustedOrigins = useTrustedOrigins();
  const allowed = isAllowedMediaUrl(url);
  const origin = allowed ? mediaUrlOrigin(url, window.location.origin) : undefined;
  const own = origin === window.location.origin;
  const trusted = !own && origin !== undefined && trustedOrigins.includes(origin);
  const shown = own || trusted;
  useEffect(() => {
    if (!shown) return undefined;
    const timer = setTimeout(onReady, LOAD_WAIT_MS);
    return () => clearTimeout(timer);
  }, [shown, onReady]);
  if (!allowed || !shown) return <UrlNotAllowed onReady={onReady} origin={allowed} />;
  return (
    <iframe className="board-iframe" src={url} title={component.description || component.name} sandbox={trusted ? 'allow-scripts allow-same-origin' : ''}
      referrerPolicy="no-referrer" loading={print ? 'eager' : 'lazy'} onLoad={onReady} data-testid="board-iframe" data-trusted={trusted} />
  );
}
