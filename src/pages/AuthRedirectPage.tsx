// /auth-redirect: the landing page of an external sign-in. Tokens handed over in the query
// (`access_token`, `refresh_token`) start a session; then the user goes on to `redirect` or /.
import { Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { redirectTargetAfterLogin } from '../providers/authProvider.ts';
import { usePageTitle } from '../routing/usePageTitle.ts';
import { sessionStarted } from '../session/sessionReset.ts';
import { getAccessToken, storeTokens } from '../session/tokenStorage.ts';

export default function AuthRedirectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('routes.authRedirect');

  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const accessToken = query.get('access_token');
    if (accessToken) {
      storeTokens(accessToken, query.get('refresh_token') ?? undefined);
      sessionStarted();
    }
    navigate(getAccessToken() ? redirectTargetAfterLogin(window.location.search) : '/login', { replace: true });
  }, [navigate]);

  return (
    <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <Spin tip={t('authRedirect.message')}>
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    </div>
  );
}
