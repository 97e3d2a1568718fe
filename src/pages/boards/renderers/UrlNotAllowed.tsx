// In place of an image, video or web page whose URL a board may not load (src/schemas/mediaUrl.ts):
// said plainly, and nothing is requested.
import { StopOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** `origin`: the URL is fine, but web pages of its origin may not be framed (the tenant's list). */
export function UrlNotAllowed({ onReady, origin = false }: { onReady(): void; origin?: boolean }) {
  const { t } = useTranslation();
  useEffect(onReady, [onReady]);
  return (
    <div data-testid="url-not-allowed">
      <Result className="board-placeholder" icon={<StopOutlined />} title={t('boards.urlNotAllowed')} subTitle={t(origin ? 'boards.frameOriginNotAllowedHint' : 'boards.urlNotAllowedHint')} />
    </div>
  );
}
