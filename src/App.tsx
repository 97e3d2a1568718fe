// The app: router, antd theme and locale, refine with its providers, and the page table's routes.
import { Refine } from '@refinedev/core';
import { useNotificationProvider } from '@refinedev/antd';
import routerProvider, { UnsavedChangesNotifier } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { ThemeConfig } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { currentBranding } from './branding/currentBranding.ts';
import { usePrefersReducedMotion } from './components/layout/usePrefersReducedMotion.ts';
import { antdLocaleOf } from './i18n/antdLocales.ts';
import { accessControlProvider } from './providers/accessControlProvider.ts';
import { authProvider } from './providers/authProvider.ts';
import { dataProvider } from './providers/dataProvider.ts';
import { i18nProvider } from './providers/i18nProvider.ts';
import { liveProvider } from './providers/liveProvider.ts';
import { queryClient } from './providers/queryClient.ts';
import { AppUpdateNotice } from './pwa/AppUpdateNotice.tsx';
import { resources } from './resources/resourceDefinitions.ts';
import { AppNavigationBridge } from './routing/AppNavigationBridge.tsx';
import { PAGES } from './pageTable.tsx';
import { AppRoutes } from './routing/AppRoutes.tsx';
import { PagesContext } from './routing/pages.tsx';

const theme: ThemeConfig = {
  // antd's secondary and description greys (45 % black, 3.4:1 on white) are darkened, and links take
  // the variant's colour (every variant's is ≥ 4.5:1 on white; antd's link blue is 4.1:1), for the
  // 4.5:1 of WCAG 2.1 AA. Selected options (language selector, selects) sit on the variant's tint
  // (its colour is ≥ 4.5:1 on it): the background antd derives from a dark colour can be far darker
  // (#a3adac from the facility teal, 2.6:1), and darker still under the pointer.
  token: {
    colorPrimary: currentBranding.themeColor,
    colorPrimaryBg: currentBranding.themeTint,
    colorPrimaryBgHover: currentBranding.themeTint,
    colorLink: currentBranding.themeColor,
    // a link under the pointer or focused keeps the colour (antd's lighter hover is 4.2:1 for the teal)
    colorLinkHover: currentBranding.themeColor,
    colorLinkActive: currentBranding.themeColor,
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    // a select's placeholder is text axe measures: antd's 25 % black is 1.8:1, 55 % is 4.7:1
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    // antd's error red (#ff4d4f) is 3.3:1 on white: danger buttons and error texts take red-7 (5.6:1)
    colorError: '#cf1322',
  },
  components: {
    Menu: { itemSelectedBg: currentBranding.themeTint, itemSelectedColor: currentBranding.themeColor },
    // description-list labels are antd's tertiary grey (45 % black) otherwise
    Descriptions: { labelColor: 'rgba(0, 0, 0, 0.65)' },
  },
};

/** SPEC §9: error toasts stay 5 s. */
const NOTIFICATION_DURATION_S = 5;
/** Notifications open below the navigation bar (SPEC §4: 84 px from the top). */
const NOTIFICATION_TOP_PX = 84;

export function App() {
  const { i18n } = useTranslation();
  // no opening, fading or sliding for those who asked their system to reduce motion
  const reducedMotion = usePrefersReducedMotion();
  const themed = useMemo<ThemeConfig>(() => ({ ...theme, token: { ...theme.token, motion: !reducedMotion } }), [reducedMotion]);
  return (
    <BrowserRouter>
      <ConfigProvider theme={themed} locale={antdLocaleOf(i18n.language)}>
        <AntdApp notification={{ duration: NOTIFICATION_DURATION_S, top: NOTIFICATION_TOP_PX }}>
          <Refine
            dataProvider={dataProvider}
            authProvider={authProvider}
            routerProvider={routerProvider}
            i18nProvider={i18nProvider}
            accessControlProvider={accessControlProvider}
            liveProvider={liveProvider}
            notificationProvider={useNotificationProvider}
            resources={resources}
            options={{
              disableTelemetry: true,
              reactQuery: { clientConfig: queryClient },
              liveMode: 'off',
              syncWithLocation: false,
              warnWhenUnsavedChanges: false,
              title: { text: currentBranding.productTitle },
            }}
          >
            <AppNavigationBridge />
            <UnsavedChangesNotifier translationKey="form.unsavedChanges" />
            <PagesContext.Provider value={PAGES}>
              <AppRoutes />
            </PagesContext.Provider>
            <AppUpdateNotice />
          </Refine>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
