// An attribute or telemetry key as a person reads it: its name in the interface language where
// the dictionaries have one (`attributeNames.<key>`), else the key itself.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export function useAttributeName(): (key: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (key: string) => (i18n.exists(`attributeNames.${key}`) ? t(`attributeNames.${key}`) : key),
    // the language changes the names
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );
}
