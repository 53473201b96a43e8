import Box from '@mui/material/Box';
import { MAP } from '@sitewatch/contracts/sites';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SignInPrompt } from '../../components/SignInPrompt.tsx';
import { useUser } from '../../lib/session.ts';
import { useTreeSelection } from '../asset-tree/selection.ts';
import { SiteMap } from '../map/SiteMap.tsx';
import { useMapSites } from '../map/useMapSites.ts';
import { useAssetAlias } from '../sites/alias.ts';
import { SummaryCards } from './SummaryCards.tsx';

/**
 * /site-summary/v2-dashboard: a wall display of the cards and the map. SPEC 2.1 gives it no login check, so it
 * opens on a screen without a session and asks to sign in instead of redirecting.
 */
export function SiteSummaryV2Page() {
  const user = useUser();
  if (!user) return <SignInPrompt text="Sign in to see the site summary" />;
  return <Wall />;
}

function Wall() {
  const alias = useAssetAlias();
  const selection = useTreeSelection();
  const filter = selection.path.length ? { path: selection.path } : {};
  // A chosen card colours the markers by that type's device at each site (the map's parentDevice).
  const [type, setType] = useState<Parameters<typeof SummaryCards>[0]['selected']>(null);
  const sites = useMapSites(type ?? MAP.defaultParentDevice, filter);
  return (
    <Box>
      <PageHeader title="Site Summary" subtitle={selection.label ?? `All ${alias.toLowerCase()}s`} />
      <SummaryCards filter={filter} selected={type} onSelect={setType} />
      <SiteMap sites={sites.data ?? []} height="calc(100vh - 420px)" />
    </Box>
  );
}
