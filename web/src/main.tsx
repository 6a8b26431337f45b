// Before the app or any third-party script runs: a password-reset token leaves the address.
import './features/auth/lib/strip-reset-token';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { initialMaintenanceCheck, openAppAfter } from './features/maintenance/lib/maintenance-check';
import { registerServiceWorker } from './app/pwa/service-worker';
import { i18nReady } from './lib/i18n';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);

// Fetch this URL's page chunk while the UI language loads, not after; the app appears
// once it is there (no loading flash, no layout shift).
openAppAfter(preloadRoute(window.location.pathname));
// The maintenance check runs alongside: one small request, ready by the time React renders.
void initialMaintenanceCheck();

// Installable app: the service worker (production builds only) caches the app shell.
if (import.meta.env.PROD) registerServiceWorker();

// Render once the UI language is loaded (English is bundled; pt/es are a small chunk).
void i18nReady.finally(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
