import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { MuiProviders } from '../providers/MuiProviders.tsx';

/** No top bar or navigation, but the MUI theme (e.g. /tenant-not-found). */
export function BareLayout() {
  return (
    <MuiProviders>
      <Suspense fallback={<PageLoader fullScreen />}>
        <Outlet />
      </Suspense>
    </MuiProviders>
  );
}
