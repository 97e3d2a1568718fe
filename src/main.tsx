import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyBrandingToDocument, currentBranding } from './branding/currentBranding.ts';
import { setUpI18n } from './i18n/i18n.ts';
import './global.css';

applyBrandingToDocument(currentBranding);
setUpI18n(currentBranding.variant);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
