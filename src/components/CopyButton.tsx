// A button that copies a text and reads 'Copied!' for 5 s; the change is announced (aria-live).
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopied } from './useCopied.ts';

interface CopyButtonProps {
  text: string;
  /** What is copied, for its accessible name ("Copy the token"). */
  label: string;
  'data-testid'?: string;
}

export function CopyButton({ text, label, ...rest }: CopyButtonProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopied();
  return (
    <Button icon={copied ? <CheckOutlined /> : <CopyOutlined />} onClick={() => void copy(text)} aria-label={copied ? undefined : label}
      data-testid={rest['data-testid']} data-copied={String(copied)}>
      <span aria-live="polite">{copied ? t('apiUsers.copied') : t('apiUsers.copy')}</span>
    </Button>
  );
}
