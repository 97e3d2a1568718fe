// /applications: one tile per module the user has, each leading to the module.
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentBranding } from '../branding/currentBranding.ts';
import { moduleIcons } from '../components/moduleIcons.tsx';
import { availableModules, moduleEntryPaths } from '../routing/appModules.ts';
import { usePageTitle } from '../routing/usePageTitle.ts';
import { useTokenClaims } from '../session/access.ts';

export default function ApplicationsPage() {
  const { t } = useTranslation();
  usePageTitle('routes.applications');
  const modules = availableModules(useTokenClaims().modules);

  return (
    <div data-testid="page-applications">
      <Typography.Title level={2}>{currentBranding.productTitle}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('applications.tagline')}</Typography.Paragraph>
      {modules.length === 0 ? (
        <Empty description={t('applications.none')} />
      ) : (
        <Row gutter={[16, 16]}>
          {modules.map((module) => (
            <Col key={module} xs={24} sm={12} lg={8} xxl={6}>
              <Link to={moduleEntryPaths[module]} data-testid={`app-tile-${module}`}>
                <Card hoverable style={{ height: '100%' }}>
                  <Card.Meta
                    avatar={<span style={{ fontSize: 28, color: currentBranding.themeColor }}>{moduleIcons[module]}</span>}
                    title={t(`modules.${module}`)}
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
