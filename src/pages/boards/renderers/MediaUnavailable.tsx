// In place of a file stored with the board that cannot be read (removed, or the board no longer
// shared): said plainly.
import { FileExclamationOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function MediaUnavailable({ onReady }: { onReady(): void }) {
  const { t } = useTranslation();
  useEffect(onReady, [onReady]);
  return (
    <div data-testid="media-unavailable">
      <Result className="board-placeholder" icon={<FileExclamationOutlined />} title={t('boards.mediaUnavailable')} />
    </div>
  );
}
