import { Outlet } from 'react-router';
import { MuiProviders } from '../providers/MuiProviders.tsx';
import { AppShell } from '../shell/AppShell.tsx';

/** SPEC 2.2: the layout of most screens. */
export function MainLayout() {
  return (
    <MuiProviders>
      <AppShell>
        <Outlet />
      </AppShell>
    </MuiProviders>
  );
}
