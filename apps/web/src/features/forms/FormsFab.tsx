import Assignment from '@mui/icons-material/Assignment';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Fab from '@mui/material/Fab';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { STORAGE_KEYS } from '@sitewatch/contracts/constants';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation, useMatches, useSearchParams } from 'react-router';
import { readString, writeString } from '../../lib/storage.ts';
import { prefetchDraft, useFormsForView } from './api.ts';
import { contextOf, viewPattern } from './route-context.ts';

/** The form screen (JSON Forms and the pickers) loads only when a form is opened. */
const loadDialog = () => import('./FormDialog.tsx');
const FormDialog = lazy(() => loadDialog().then((m) => ({ default: m.FormDialog })));

type FabState = 'docked' | 'undocked';

/** Width of the docked tab; the shell's main area keeps this much free at its right edge while it shows. */
const FORMS_DOCK_WIDTH = 36;
const readState = (): FabState => (readString(STORAGE_KEYS.fabState) === 'undocked' ? 'undocked' : 'docked');

/** SPEC 2.5: the forms bound to this route; docked at the edge or floating, remembered under fab-state. */
export default function FormsFab() {
  const location = useLocation();
  // The layout sits above the page's route: the deepest match carries the page's params.
  const params = useMatches().at(-1)?.params ?? {};
  const [search, setSearch] = useSearchParams();
  const pattern = viewPattern(location.pathname, params);
  const forms = useFormsForView(pattern);
  const [state, setState] = useState<FabState>(readState);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const direct = search.get('submit_form');
  const open = chosen ?? direct;
  const paramsKey = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the params' values
  const context = useMemo(() => contextOf(pattern, params), [pattern, paramsKey]);

  const close = () => {
    setChosen(null);
    if (direct) {
      const next = new URLSearchParams(search);
      next.delete('submit_form');
      setSearch(next, { replace: true });
    }
  };
  // The form dialog's code loads while the menu of forms is open, before one is chosen.
  const openMenu = (target: HTMLElement) => {
    setAnchor(target);
    void loadDialog().catch(() => undefined);
  };
  const toggleDock = () => {
    const next: FabState = state === 'docked' ? 'undocked' : 'docked';
    writeString(STORAGE_KEYS.fabState, next);
    setState(next);
    setAnchor(null);
  };

  const list = forms.data?.contents ?? [];
  const docked = list.length > 0 && state === 'docked';
  // The shell keeps a gutter at the right edge while the docked tab is there, so that it never covers the page.
  useEffect(() => {
    if (!docked) return;
    document.body.dataset.formsDock = 'side';
    return () => {
      delete document.body.dataset.formsDock;
    };
  }, [docked]);
  return (
    <>
      {list.length ? (
        state === 'undocked' ? (
          <Fab
            color="primary"
            aria-label="Forms"
            onClick={(e) => openMenu(e.currentTarget)}
            sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1200 }}
            data-testid="forms-fab"
          >
            <Assignment />
          </Fab>
        ) : (
          <Box sx={{ position: 'fixed', right: 0, top: '45%', zIndex: 1200 }}>
            <Button
              variant="contained"
              aria-label="Forms"
              onClick={(e) => openMenu(e.currentTarget)}
              startIcon={<Assignment />}
              data-testid="forms-fab"
              sx={{ borderRadius: '8px 0 0 8px', writingMode: 'vertical-rl', width: FORMS_DOCK_WIDTH, minWidth: 0, px: 0, py: 2 }}
            >
              Forms
            </Button>
          </Box>
        )
      ) : null}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {list.map((f) => (
          <MenuItem
            key={f.id}
            onClick={() => {
              prefetchDraft(f.id);
              setChosen(f.name);
              setAnchor(null);
            }}
          >
            <ListItemText primary={f.label} secondary={f.description || undefined} />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem onClick={toggleDock}>{state === 'docked' ? 'Undock button' : 'Dock button'}</MenuItem>
      </Menu>
      {open ? (
        <Suspense fallback={null}>
          <FormDialog key={open} name={open} context={context} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
