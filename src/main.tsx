import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyBrandingToDocument, currentBranding } from './branding/currentBranding.ts';
import { setUpI18n } from './i18n/i18n.ts';
import { pageErrors, reportPageErrors } from './monitoring/errorReporting.ts';
import { BUILD_ID } from './pwa/appUpdates.ts';
import { reloadOnChunkFailure } from './pwa/chunkReload.ts';
import './global.css';

reportPageErrors();
reloadOnChunkFailure();
document.documentElement.dataset.build = BUILD_ID;
applyBrandingToDocument(currentBranding);
setUpI18n(currentBranding.variant);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// React's render errors are reported too (and still shown in the console, as React would)
const renderError = (error: unknown) => {
  console.error(error);
  pageErrors.report('render', error);
};
createRoot(root, { onUncaughtError: renderError, onCaughtError: renderError }).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
