// An image component: the picture at definition.url, when the board may load it.
import { isAllowedMediaUrl } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';

export function ImageComponent({ component, onReady, print }: RendererProps) {
  const { url } = definitionOf(component);
  if (!isAllowedMediaUrl(url)) return <UrlNotAllowed onReady={onReady} />;
  return (
    <img className="board-image" src={url} alt={component.description || component.name} loading={print ? 'eager' : 'lazy'}
      referrerPolicy="no-referrer" onLoad={onReady} onError={onReady} data-testid="board-image" />
  );
}
