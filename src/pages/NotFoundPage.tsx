// The 404 page (SPEC §2).
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../routing/usePageTitle.ts';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('routes.notFound');
  return (
    <div data-testid="not-found">
      <Result
        status="404"
        title={t('notFound.oops')}
        subTitle={
          <>
            <div style={{ fontSize: 18, fontWeight: 500 }}>{t('notFound.title')}</div>
            <div>{t('notFound.hint')}</div>
          </>
        }
        extra={
          <Button type="primary" onClick={() => navigate('/applications')} data-testid="back-home">
            {t('notFound.backHome')}
          </Button>
        }
      />
    </div>
  );
}
