// SPEC §2: the page title is the translated route title plus the product title.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { currentBranding } from '../branding/currentBranding.ts';

export function usePageTitle(titleKey: string): string {
  const { t, i18n } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} | ${currentBranding.productTitle}`;
  }, [title, i18n.language]);
  return title;
}
