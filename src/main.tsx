import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyBrandingToDocument, currentBranding } from './branding/currentBranding.ts';
import { setUpI18n } from './i18n/i18n.ts';
import { BUILD_ID } from './pwa/appUpdates.ts';
import { reloadOnChunkFailure } from './pwa/chunkReload.ts';
import './global.css';

reloadOnChunkFailure();
document.documentElement.dataset.build = BUILD_ID;
applyBrandingToDocument(currentBranding);
setUpI18n(currentBranding.variant);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
