import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { RESIZE_DEBOUNCE_MS, TREE_PANE_WIDTH } from '@sitewatch/contracts/constants';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readJson, writeJson } from '../../lib/storage.ts';

const KEY = 'tree-pane';
const clamp = (w: number) => Math.min(TREE_PANE_WIDTH.max, Math.max(TREE_PANE_WIDTH.min, Math.round(w)));

/**
 * SPEC 2.4 / 9: a resizable tree pane (400 px, 300 to 900) with an open/close toggle; both are remembered. Without a
 * pane (no tree access, or not known yet) the page is shown alone, at the same place in the element tree, so that
 * the pane arriving later does not mount the page a second time.
 */
export function TreeSplitter({ pane, children }: { pane: ReactNode | null; children: ReactNode }) {
  const { t } = useTranslation();
  const stored = readJson<{ open?: boolean; width?: number }>(KEY);
  const [open, setOpen] = useState(stored?.open ?? true);
  const [width, setWidth] = useState(clamp(stored?.width ?? TREE_PANE_WIDTH.default));
  const drag = useRef<{ x: number; width: number } | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => writeJson(KEY, { open, width }), RESIZE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [open, width]);

  const handlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { x: event.clientX, width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(clamp(drag.current.width + event.clientX - drag.current.x));
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 50 : 10;
    if (event.key === 'ArrowLeft') setWidth((w) => clamp(w - step));
    else if (event.key === 'ArrowRight') setWidth((w) => clamp(w + step));
    else if (event.key === 'Home') setWidth(TREE_PANE_WIDTH.min);
    else if (event.key === 'End') setWidth(TREE_PANE_WIDTH.max);
    else return;
    event.preventDefault();
  };

  // On a phone the pane cannot stand beside the page: it sits above it, full width and of bounded height.
  const stacked = !useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: stacked ? 'column' : 'row',
        minHeight: pane && !stacked ? 'calc(100vh - 200px)' : undefined,
        gap: 0,
      }}
    >
      {open && pane && stacked ? (
        <Box
          component="aside"
          sx={{ maxHeight: '40vh', overflow: 'auto', borderBottom: 1, borderColor: 'divider', mb: 1 }}
          data-testid="tree-pane"
        >
          {pane}
        </Box>
      ) : null}
      {open && pane && !stacked ? (
        <>
          <Box
            component="aside"
            sx={{ width, flexShrink: 0, overflow: 'auto', borderRight: 1, borderColor: 'divider', pr: 1 }}
            data-testid="tree-pane"
          >
            {pane}
          </Box>
          <Box
            role="separator"
            aria-orientation="vertical"
            aria-label={t('layout.resizeTree')}
            aria-valuemin={TREE_PANE_WIDTH.min}
            aria-valuemax={TREE_PANE_WIDTH.max}
            aria-valuenow={width}
            tabIndex={0}
            onPointerDown={handlePointerDown}
            onPointerMove={handlePointerMove}
            onPointerUp={() => {
              drag.current = null;
            }}
            onKeyDown={handleKeyDown}
            sx={{ width: 6, cursor: 'col-resize', flexShrink: 0, '&:hover, &:focus-visible': { bgcolor: 'action.hover' }, outline: 'none' }}
          />
        </>
      ) : null}
      <Box sx={{ flex: 1, minWidth: 0, pl: pane && !stacked ? 1 : 0 }}>
        {pane ? (
          <Tooltip title={open ? t('layout.hideTree') : t('layout.showTree')}>
            <IconButton
              size="small"
              onClick={() => setOpen((v) => !v)}
              aria-label={open ? t('layout.hideTree') : t('layout.showTree')}
              aria-pressed={open}
            >
              {stacked ? open ? <ExpandLess /> : <ExpandMore /> : open ? <ChevronLeft /> : <ChevronRight />}
            </IconButton>
          </Tooltip>
        ) : null}
        {children}
      </Box>
    </Box>
  );
}
