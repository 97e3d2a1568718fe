// In place of an image, video or web page whose URL a board may not load (src/schemas/mediaUrl.ts):
// said plainly, and nothing is requested.
import { StopOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function UrlNotAllowed({ onReady }: { onReady(): void }) {
  const { t } = useTranslation();
  useEffect(onReady, [onReady]);
  return <Result className="board-placeholder" icon={<StopOutlined />} title={t('boards.urlNotAllowed')} subTitle={t('boards.urlNotAllowedHint')} data-testid="url-not-allowed" />;
}
