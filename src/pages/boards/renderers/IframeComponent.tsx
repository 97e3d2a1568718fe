// A web page component: definition.url in a sandboxed frame. Only origins on the tenant's list
// (tenant attribute `iframe_origins`) may run scripts with their own origin; any other page is
// shown without scripts, and a URL the board may not load is not requested at all. This site's
// own pages never get scripts: a page of the same origin with both rights could lift its sandbox.
import { useContext, useEffect } from 'react';
import { ShellDataContext } from '../../../components/layout/shellData.ts';
import { isAllowedMediaUrl, mediaUrlOrigin } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';

/** A frame that never says it loaded (a refused page) holds a print back this long at most. */
const LOAD_WAIT_MS = 5_000;

/** The tenant's trusted frame origins (none until the tenant names some). */
function useTrustedOrigins(): readonly string[] {
  const origins = useContext(ShellDataContext)?.tenant.attributes.iframe_origins;
  return Array.isArray(origins) ? origins.filter((origin): origin is string => typeof origin === 'string') : [];
}

export function IframeComponent({ component, onReady, print }: RendererProps) {
  const { url } = definitionOf(component);
  const trustedOrigins = useTrustedOrigins();
  const allowed = isAllowedMediaUrl(url);
  useEffect(() => {
    if (!allowed) return undefined;
    const timer = setTimeout(onReady, LOAD_WAIT_MS);
    return () => clearTimeout(timer);
  }, [allowed, onReady]);
  if (!allowed) return <UrlNotAllowed onReady={onReady} />;
  const origin = mediaUrlOrigin(url, window.location.origin);
  const trusted = origin !== window.location.origin && trustedOrigins.includes(origin);
  return (
    <iframe className="board-iframe" src={url} title={component.description || component.name} sandbox={trusted ? 'allow-scripts allow-same-origin' : ''}
      referrerPolicy="no-referrer" loading={print ? 'eager' : 'lazy'} onLoad={onReady} data-testid="board-iframe" data-trusted={trusted} />
  );
}
