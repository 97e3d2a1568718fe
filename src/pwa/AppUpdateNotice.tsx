// SPEC §4: a new version shows a persistent notice with a Refresh button that activates it and
// reloads. It stays until Refresh; with unsaved changes in a form, Refresh asks first.
import { useTranslate, useWarnAboutChange } from '@refinedev/core';
import { Alert, Button } from 'antd';
import { useSyncExternalStore } from 'react';
import { appUpdates } from './appUpdates.ts';

export function AppUpdateNotice() {
  const t = useTranslate();
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  const ready = useSyncExternalStore(appUpdates.onChange, appUpdates.updateReady);
  if (!ready) return null;
  const refresh = () => {
    if (warnWhen && !window.confirm(t('form.unsavedChanges'))) return;
    setWarnWhen(false); // asked already: the reload does not ask again
    appUpdates.refresh();
  };
  return (
    <Alert
      className="app-update-notice"
      data-testid="app-update-notice"
      type="info"
      showIcon
      role="status"
      message={t('appUpdate.title')}
      description={t('appUpdate.description')}
      action={<Button type="primary" onClick={refresh}>{t('appUpdate.refresh')}</Button>}
    />
  );
}
