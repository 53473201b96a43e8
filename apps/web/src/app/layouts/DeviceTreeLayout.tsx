import { type ComponentType, lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useCustomerSettings } from '../../features/tenant-settings/api.ts';
import { MuiProviders } from '../providers/MuiProviders.tsx';
import { AppShell } from '../shell/AppShell.tsx';
import { TreeSplitter } from './TreeSplitter.tsx';
import { TREE_PANE } from './tree-pane.ts';

const Pane: ComponentType | null = TREE_PANE
  ? lazy(() => (TREE_PANE as () => Promise<ComponentType>)().then((C) => ({ default: C })))
  : null;

/** SPEC 2.4: the main frame plus a device-tree pane, shown when the customer's tree access is on. */
export function DeviceTreeLayout() {
  return (
    <MuiProviders>
      <DeviceTreeFrame />
    </MuiProviders>
  );
}

function DeviceTreeFrame() {
  const settings = useCustomerSettings().data;
  const showTree = Boolean(Pane && settings?.treeAccess);
  return (
    <AppShell>
      <TreeSplitter
        pane={
          showTree && Pane ? (
            <Suspense fallback={<PageLoader />}>
              <Pane />
            </Suspense>
          ) : null
        }
      >
        <Outlet />
      </TreeSplitter>
    </AppShell>
  );
}
