// The profile pages' frame: their own menu (the page table's profile pages this user may open) and content.
import { Col, Menu, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useOpenablePages } from '../../routing/pages.tsx';

export function ProfileLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useOpenablePages((page) => !!page.profile).map((page) => ({ key: page.path, icon: page.icon, label: t(page.titleKey) }));
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
