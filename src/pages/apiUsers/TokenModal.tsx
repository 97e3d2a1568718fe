// The token of a new API user, shown this once (it is kept only as a hash), with the tenant id
// the sign-in (POST /public/auth/login) names; each with its copy button.
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.tsx';

export interface CreatedApiUser {
  id: string;
  username: string;
  tenant_id: string;
  access_token: string;
  expires_at: string;
}

/** A value to copy (a token, the tenant id), labelled, read-only. */
export function SecretRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: 4 }}>{label}</label>
      <Space.Compact style={{ width: '100%' }}>
        <Input id={id} readOnly value={value} className="api-user-secret" data-testid={testId} />
        <CopyButton text={value} label={t('apiUsers.copyLabel', { what: label })} data-testid={`${testId}-copy`} />
      </Space.Compact>
    </div>
  );
}

export function TokenModal({ created, onClose }: { created?: CreatedApiUser; onClose(): void }) {
  const { t, i18n } = useTranslation();
  return (
    <Modal open={!!created} title={t('apiUsers.tokenTitle', { username: created?.username })} onCancel={onClose} maskClosable={false}
      footer={<Button type="primary" onClick={onClose} data-testid="api-user-token-close">{t('apiUsers.tokenDone')}</Button>}>
      {created && (
        <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="api-user-token-modal">
          <Alert type="warning" showIcon message={t('apiUsers.tokenOnce')} />
          <SecretRow label={t('apiUsers.token')} value={created.access_token} testId="api-user-token" />
          <Typography.Text type="secondary">
            {t('apiUsers.tokenExpires', { date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(created.expires_at)) })}
          </Typography.Text>
          <SecretRow label={t('apiUsers.tenantId')} value={created.tenant_id} testId="api-user-tenant" />
          <Typography.Text type="secondary">{t('apiUsers.signInHint')}</Typography.Text>
        </Space>
      )}
    </Modal>
  );
}
