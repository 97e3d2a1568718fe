// A page of a part of the product that is not built yet: its real title and a short notice.
import { ToolOutlined } from '@ant-design/icons';
import { Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../routing/usePageTitle.ts';

interface ComingSoonPageProps {
  /** Used in the page's test id: `page-<routeName>`. */
  routeName: string;
  titleKey: string;
}

export default function ComingSoonPage({ routeName, titleKey }: ComingSoonPageProps) {
  const { t } = useTranslation();
  const title = usePageTitle(titleKey);
  return (
    <div data-testid={`page-${routeName}`}>
      <Typography.Title level={2}>{title}</Typography.Title>
      <Card>
        <Result icon={<ToolOutlined />} title={t('common.comingSoonTitle')} subTitle={t('common.comingSoon')} />
      </Card>
    </div>
  );
}
