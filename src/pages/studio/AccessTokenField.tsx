// A device's access token (SPEC §2) for those who may see it (entity_credentials answers only
// them), with a copy button that says 'Copied!' for 5 s (SPEC §8).
import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, Space, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustom } from '@refinedev/core';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { ENTITY_CREDENTIALS } from './queries.ts';

const COPIED_MS = 5_000;

export function AccessTokenField({ id }: { id: number }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const { query } = useCustom<{ entity_credentials: { credentialsId: string | null } }>({
    url: '', method: 'post', meta: graphqlMeta(ENTITY_CREDENTIALS, { id }), errorNotification: false,
  });
  const token = query.data?.data.entity_credentials.credentialsId ?? undefined;
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!token) return null;
  return (
    <div style={{ marginBottom: 12 }}>
      <label htmlFor="studio-access-token" style={{ display: 'block', paddingBottom: 8 }}>{t('models.entity.fields.access_token')}</label>
      <Space.Compact style={{ width: '100%' }}>
        <Input id="studio-access-token" readOnly value={token} data-testid="studio-access-token" />
        <Tooltip open={copied} title={t('studio.copied')}>
          <Button icon={<CopyOutlined />} aria-label={t('studio.copy')}
            onClick={() => void navigator.clipboard.writeText(token).then(() => setCopied(true), () => setCopied(false))} />
        </Tooltip>
      </Space.Compact>
    </div>
  );
}
