import type { CustomerSettings, MenuItem } from '@sitewatch/contracts/tenant-settings';
import { createContext, useContext } from 'react';

export interface ShellValue {
  /** The side-navigation entries this user may open (permission, role and screen filtered). */
  menu: MenuItem[];
  settings: CustomerSettings | undefined;
  /** The settings (and so the menu) are still on their way: an empty menu means nothing yet. */
  menuLoading: boolean;
}

export const ShellContext = createContext<ShellValue>({ menu: [], settings: undefined, menuLoading: false });

/** Pages read the filtered menu and the customer settings the shell already loaded. */
export const useShell = () => useContext(ShellContext);
