import './lib/zod-config.ts';
import './app/app.css';
import './lib/i18n/index.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { ToastHost } from './app/providers/ToastHost.tsx';
import { ThemeModeProvider } from './app/providers/theme-mode.tsx';
import { router } from './app/router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <ThemeModeProvider>
      <RouterProvider router={router} />
      <ToastHost />
    </ThemeModeProvider>
  </StrictMode>,
);
