import { QueryClientProvider } from '../lib/query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { MaintenanceGate } from '../features/maintenance/components/maintenance-gate';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './routes';
import { SessionSync } from './session-sync';

/*
 * Declarative routing (<BrowserRouter>): the data-router half of react-router
 * (loaders, actions) is ~16 KB gzip the app does not use; lib/query.ts is the data layer.
 */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionSync />
      <MaintenanceGate>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </MaintenanceGate>
    </QueryClientProvider>
  );
}
