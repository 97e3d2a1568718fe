// Loads the tenant, then the entity types, with a spinner; on failure a clear message and a
// retry button. Children render only when both are there.
import { useCustom, useList, useLogout } from '@refinedev/core';
import { Button, Result, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPaths } from '../../resources/apiMap.ts';
import { ShellDataContext } from './shellData.ts';
import { trustedFrameOrigins } from '../../schemas/frameOrigins.ts';
import { applyTenantFramePolicy } from './tenantFramePolicy.ts';
import type { EntityType, ShellData, Tenant } from './shellData.ts';

export function ShellDataGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout();
  const tenantCall = useCustom<Tenant>({
    url: apiPaths.tenant,
    method: 'get',
    errorNotification: false,
    queryOptions: { staleTime: Infinity },
  });
  const tenant = tenantCall.query.data?.data;
  const entityTypesCall = useList<EntityType>({
    resource: 'entity_types',
    pagination: { mode: 'off' },
    errorNotification: false,
    queryOptions: { enabled: !!tenant, staleTime: Infinity },
  });
  const entityTypes = entityTypesCall.query.data?.data;

  useEffect(() => {
    if (tenant && !applyTenantFramePolicy(trustedFrameOrigins(tenant.attributes))) window.location.reload();
  }, [tenant]);

  const shellData = useMemo<ShellData | null>(
    () => (tenant && entityTypes ? { tenant, entityTypes } : null),
    [tenant, entityTypes],
  );

  const failure = tenantCall.query.isError
    ? { text: t('errors.tenantLoadFailed'), error: tenantCall.query.error, retry: () => void tenantCall.query.refetch() }
    : entityTypesCall.query.isError
      ? { text: t('errors.entityTypesLoadFailed'), error: entityTypesCall.query.error, retry: () => void entityTypesCall.query.refetch() }
      : null;

  if (failure) {
    return (
      <div data-testid="shell-load-error">
        <Result
          status="error"
          title={t('errors.shellLoadFailed')}
          subTitle={`${failure.text} ${failure.error?.message ?? ''}`.trim()}
          extra={
            <Space>
              <Button type="primary" onClick={failure.retry} data-testid="shell-retry">
                {t('common.retry')}
              </Button>
              <Button onClick={() => logout()} data-testid="shell-logout">
                {t('navbar.logout')}
              </Button>
            </Space>
          }
        />
      </div>
    );
  }

  if (!shellData) {
    return (
      <div style={{ display: 'flex', height: '100vh', alignItems: 'center', justifyContent: 'center' }} data-testid="shell-loading">
        <Spin size="large" tip={t('common.loading')}>
          <div style={{ width: 160, height: 80 }} />
        </Spin>
      </div>
    );
  }

  return <ShellDataContext.Provider value={shellData}>{children}</ShellDataContext.Provider>;
}
