// /profile: who is signed in, for which organisation, and links to the settings.
import { useGetIdentity } from '@refinedev/core';
import { Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useShellData } from '../../components/layout/shellData.ts';
import type { CurrentUser } from '../../providers/authProvider.ts';
import { useOpenableSettingsPages } from '../../routing/pages.tsx';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { ProfileLayout } from './ProfileLayout.tsx';

export default function ProfileHomePage() {
  const { t } = useTranslation();
  const title = usePageTitle('routes.profile');
  const { tenant } = useShellData();
  const { data: user } = useGetIdentity<CurrentUser>();
  const settingsPages = useOpenableSettingsPages();

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
          {settingsPages.length > 0 ? (
            <Space direction="vertical">
              {settingsPages.map((page) => (
                <Link key={page.path} to={page.path} data-testid={`profile-link-${page.path.split('/').pop()}`}>
                  {page.icon} {t(page.titleKey)}
                </Link>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">{t('profile.noSettings')}</Typography.Text>
          )}
        </Card>
      </div>
    </ProfileLayout>
  );
}
