import { ASSET_TREE } from '@sitewatch/contracts/sites';
import { type Dispatch, useEffect, useRef } from 'react';
import { api } from '../../lib/api.ts';
import { realtime } from '../../lib/realtime.ts';
import { fetchCompact } from '../devices/api.ts';
import type { TreeAction, TreeState } from './tree-model.ts';

/** Pushed alarm and status events are gathered for this long before the tree asks what changed. */
const PUSH_DEBOUNCE_MS = 1000;

/**
 * SPEC 2.13: the tree's colours follow alarmStatus. Every interval (and soon after a pushed alarm or status event)
 * the devices whose alarm changed since the last look are fetched (alarmUpdatedAt__gt) and repainted; the sites
 * they belong to get their colour again.
 */
export function useAlarmRefresh(tree: TreeState, dispatch: Dispatch<TreeAction>, intervalSec: number = ASSET_TREE.alarmRefreshSec) {
  const treeRef = useRef(tree);
  treeRef.current = tree;
  useEffect(() => {
    let since = new Date(Date.now() - 60_000).toISOString();
    let running = false;
    const refresh = async () => {
      if (running) return;
      running = true;
      const started = new Date().toISOString();
      try {
        const changed = await fetchCompact({ alarmUpdatedAt__gt: since, orderBy: 'id', limit: ASSET_TREE.apiLimit });
        since = started;
        if (changed.contents.length === 0) return;
        dispatch({ type: 'colours', devices: changed.contents });
        const nodes = treeRef.current.nodes;
        const paths = new Map<string, string[]>();
        for (const d of changed.contents) {
          const site = d.assetId !== null ? nodes[`asset:${d.assetId}`] : undefined;
          if (site?.node.path) paths.set(JSON.stringify(site.node.path), site.node.path);
        }
        for (const path of paths.values()) {
          const level = await api.get('/iotapp/assets/tree/', {
            query: { path, limit: ASSET_TREE.apiLimit },
            toast: false,
          });
          dispatch({ type: 'siteColours', sites: level.contents.filter((n) => n.nodeType === 'asset') });
        }
      } catch (error) {
        console.warn('Tree colours could not be refreshed', error);
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void refresh(), intervalSec * 1000);
    let pushed: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(pushed);
      pushed = setTimeout(() => void refresh(), PUSH_DEBOUNCE_MS);
    };
    const offAlarm = realtime.on('alarm', soon);
    const offStatus = realtime.on('device.status', soon);
    return () => {
      clearInterval(timer);
      clearTimeout(pushed);
      offAlarm();
      offStatus();
    };
  }, [dispatch, intervalSec]);
}
