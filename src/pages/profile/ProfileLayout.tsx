// The profile pages' frame: a side menu (profile, change password, notifications) and content.
import { LockOutlined, NotificationOutlined, UserOutlined } from '@ant-design/icons';
import { Col, Menu, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { hasSettingsAccess, useTokenClaims } from '../../session/access.ts';

export function ProfileLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const showSettings = hasSettingsAccess(useTokenClaims());
  const items = [
    { key: '/profile', icon: <UserOutlined />, label: t('routes.profile') },
    ...(showSettings
      ? [
          { key: '/profile/password', icon: <LockOutlined />, label: t('routes.changePassword') },
          { key: '/profile/notifications', icon: <NotificationOutlined />, label: t('routes.notifications') },
        ]
      : []),
  ];
  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} md={7} lg={6} xl={5}>
        <Menu mode="inline" items={items} selectedKeys={[pathname]} onClick={({ key }) => navigate(key)} data-testid="profile-menu" />
      </Col>
      <Col xs={24} md={17} lg={18} xl={19}>
        {children}
      </Col>
    </Row>
  );
}
