import './styles/base.compiled.css';
import './app/app.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { seedBootData } from './app/boot-data';
import { queryClient } from './app/query-client';
import { createBrowserHistory } from './app/routing/history';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page carries the boot calls' answers: the first screen renders without waiting for them.
seedBootData(queryClient);

const app = <AppRoot client={queryClient} history={createBrowserHistory()} />;
// The landing page arrives already drawn (prerendered by the build, see prerender.tsx): React
// takes over its markup instead of drawing it again. Every other page starts from an empty #root.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
