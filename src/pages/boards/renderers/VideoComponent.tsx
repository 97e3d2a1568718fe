// A video component: the video at definition.url (or the file stored with the board) with the
// browser's own controls, when the board may load it. Ready (for printing) once its first frame's
// facts are known, or it failed.
import { useTranslation } from 'react-i18next';
import { isAllowedMediaUrl } from '../../../schemas/mediaUrl.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';
import { MediaUnavailable } from './MediaUnavailable.tsx';
import { UrlNotAllowed } from './UrlNotAllowed.tsx';
import { useMediaSource } from './useMediaSource.ts';

export function VideoComponent({ component, onReady }: RendererProps) {
  const { t } = useTranslation();
  const { url } = definitionOf(component);
  const allowed = isAllowedMediaUrl(url);
  const { src, failed } = useMediaSource(allowed ? url : '');
  if (!allowed) return <UrlNotAllowed onReady={onReady} />;
  if (failed) return <MediaUnavailable onReady={onReady} />;
  if (!src) return null;
  return (
    <video className="board-video" src={src} controls preload="metadata" aria-label={component.name}
      onLoadedData={onReady} onError={onReady} data-testid="board-video">
      {t('boards.videoUnsupported')}
    </video>
  );
}
