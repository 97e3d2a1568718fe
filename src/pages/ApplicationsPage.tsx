// /applications: one tile per module the user may open (the page table), each leading to the module.
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentBranding } from '../branding/currentBranding.ts';
import { useOpenablePages } from '../routing/pages.tsx';
import { usePageTitle } from '../routing/usePageTitle.ts';

export default function ApplicationsPage() {
  const { t } = useTranslation();
  usePageTitle('routes.applications');
  const modules = useOpenablePages((page) => !!page.module);

  return (
    <div data-testid="page-applications">
      <Typography.Title level={2}>{currentBranding.productTitle}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('applications.tagline')}</Typography.Paragraph>
      {modules.length === 0 ? (
        <Empty description={t('applications.none')} />
      ) : (
        <Row gutter={[16, 16]}>
          {modules.map(({ module, path, icon, titleKey }) => (
            <Col key={module} xs={24} sm={12} lg={8} xxl={6}>
              <Link to={path} data-testid={`app-tile-${module}`}>
                <Card hoverable style={{ height: '100%' }}>
                  <Card.Meta
                    avatar={<span style={{ fontSize: 28, color: currentBranding.themeColor }}>{icon}</span>}
                    title={t(titleKey)}
                    description={t(`moduleDescriptions.${module}`)}
                  />
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
