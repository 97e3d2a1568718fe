// An image component: the picture at definition.url (or the file stored with the board), when the
// board may load it.
import { isAllowedMediaUrl } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { MediaUnavailable } from './MediaUnavailable.tsx';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';
import { useMediaSource } from './useMediaSource.ts';

export function ImageComponent({ component, onReady, print }: RendererProps) {
  const { url } = definitionOf(component);
  const allowed = isAllowedMediaUrl(url);
  const { src, failed } = useMediaSource(allowed ? url : '');
  if (!allowed) return <UrlNotAllowed onReady={onReady} />;
  if (failed) return <MediaUnavailable onReady={onReady} />;
  if (!src) return null;
  return (
    <img className="board-image" src={src} alt={component.description || component.name} loading={print ? 'eager' : 'lazy'}
      referrerPolicy="no-referrer" onLoad={onReady} onError={onReady} data-testid="board-image" />
  );
}
