// Testing Library only auto-cleans when test globals are on; this project keeps them off.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom has no layout; ScrollRestoration calls this on every navigation. (No window at all in the
// tests that run in Node, as the build's prerendering does.)
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
