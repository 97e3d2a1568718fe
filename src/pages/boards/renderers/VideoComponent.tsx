// A video component: the video at definition.url with the browser's own controls, when the board
// may load it. Ready (for printing) once its first frame's facts are known, or it failed.
import { useTranslation } from 'react-i18next';
import { isAllowedMediaUrl } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';

export function VideoComponent({ component, onReady }: RendererProps) {
  const { t } = useTranslation();
  const { url } = definitionOf(component);
  if (!isAllowedMediaUrl(url)) return <UrlNotAllowed onReady={onReady} />;
  return (
    <video className="board-video" src={url} controls preload="metadata" aria-label={component.name}
      onLoadedData={onReady} onError={onReady} data-testid="board-video">
      {t('boards.videoUnsupported')}
    </video>
  );
}
