import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { i18nReady } from './lib/i18n';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);

// Fetch this URL's page chunk while the UI language loads, not after.
preloadRoute(window.location.pathname);

// Render once the UI language is loaded (English is bundled; pt/es are a small chunk).
void i18nReady.finally(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
