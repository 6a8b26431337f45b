// Before the app or any third-party script runs: a password-reset token leaves the address.
import './features/auth/lib/strip-reset-token';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { initialMaintenanceCheck, openAppAfter } from './features/maintenance/lib/maintenance-check';
import { registerServiceWorker } from './app/pwa/service-worker';
import { initI18n } from './lib/i18n';
import './index.css';

/**
 * Lets the browser paint and handle input between start-up steps (each a short task). A message
 * to itself, not a timer: timers are clamped in background tabs.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

async function start(container: HTMLElement): Promise<void> {
  await nextTask(); // the modules' evaluation is a task of its own
  // The maintenance check: one small request, ready by the time React renders.
  void initialMaintenanceCheck();
  // Fetch this URL's page chunk while the UI language loads, not after; the app appears
  // once it is there (no loading flash, no layout shift).
  openAppAfter(preloadRoute(window.location.pathname));
  await nextTask();
  // Render once the UI language is loaded (English is bundled; pt/es are a small chunk).
  const languageReady = initI18n();
  await nextTask();
  const root = createRoot(container);
  await languageReady.catch(() => undefined);
  // A transition: React renders the app in short slices; the start-up screen in index.html
  // stays until the first commit.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
void start(container);

// Installable app: the service worker (production builds only) caches the app shell.
if (import.meta.env.PROD) registerServiceWorker();
