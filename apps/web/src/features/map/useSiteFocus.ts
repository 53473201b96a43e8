import type { MapSite } from '@sitewatch/contracts/sites';
import { useCallback, useState } from 'react';
import { useChooseSite } from '../asset-tree/selection.ts';

/**
 * The site the map centres on. Picking one from the location list also chooses it for the page, which reveals it
 * in the device tree.
 */
export function useSiteFocus() {
  const [focus, setFocus] = useState<MapSite | null>(null);
  const chooseSite = useChooseSite();
  const pick = useCallback(
    (site: MapSite) => {
      setFocus(site);
      chooseSite(site.id);
    },
    [chooseSite],
  );
  return { focus, setFocus, pick };
}
