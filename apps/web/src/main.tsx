import './styles/base.compiled.css';
import './app/app.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { seedBootData } from './app/boot-data';
import { queryClient } from './app/query-client';
import { createBrowserHistory } from './app/routing/history';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page carries the boot calls' answers: the first screen renders without waiting for them.
seedBootData(queryClient);

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App history={createBrowserHistory()} />
    </QueryClientProvider>
  </StrictMode>,
);
