// /profile: who is signed in, for which organisation, and links to the settings.
import { LockOutlined, NotificationOutlined } from '@ant-design/icons';
import { useGetIdentity } from '@refinedev/core';
import { Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useShellData } from '../../components/layout/shellData.ts';
import type { CurrentUser } from '../../providers/authProvider.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { hasSettingsAccess, useTokenClaims } from '../../session/access.ts';
import { ProfileLayout } from './ProfileLayout.tsx';

export default function ProfileHomePage() {
  const { t } = useTranslation();
  const title = usePageTitle('routes.profile');
  const { tenant } = useShellData();
  const { data: user } = useGetIdentity<CurrentUser>();
  const showSettings = hasSettingsAccess(useTokenClaims());

  return (
    <ProfileLayout>
      <div data-testid="page-profile">
        <Typography.Title level={2}>{title}</Typography.Title>
        <Card title={t('profile.heading')}>
          <Descriptions column={1} bordered size="middle">
            <Descriptions.Item label={t('profile.name')}>{user?.username ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('profile.email')}>
              <span data-testid="profile-email">{user?.email ?? ''}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('profile.tenant')}>
              <span data-testid="profile-tenant">{tenant.name}</span>
            </Descriptions.Item>
          </Descriptions>
        </Card>
        <Card title={t('profile.settings')} style={{ marginTop: 16 }}>
          {showSettings ? (
            <Space direction="vertical">
              <Link to="/profile/password" data-testid="profile-link-password">
                <LockOutlined /> {t('routes.changePassword')}
              </Link>
              <Link to="/profile/notifications" data-testid="profile-link-notifications">
                <NotificationOutlined /> {t('routes.notifications')}
              </Link>
            </Space>
          ) : (
            <Typography.Text type="secondary">{t('profile.noSettings')}</Typography.Text>
          )}
        </Card>
      </div>
    </ProfileLayout>
  );
}
