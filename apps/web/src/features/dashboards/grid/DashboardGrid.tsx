import 'react-grid-layout/css/styles.css';
import Box from '@mui/material/Box';
import { GRID_COLUMNS, type LayoutItem } from '@sitewatch/contracts/dashboards';
import type { ReactNode } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import { type Breakpoint, breakpointFor, type GridLayouts, gridLayout, ROW_HEIGHT, sameLayout } from './layout.ts';

/**
 * The dashboard grid: the wide layout, or the small-screen one below 600 px of container width. Editing drags by
 * each widget's `.widget-drag` handle and resizes from the corner; viewing is static.
 */
export function DashboardGrid<T extends { id: string }>({
  widgets,
  layouts,
  editing,
  onLayout,
  render,
  forceBreakpoint,
}: {
  widgets: readonly T[];
  layouts: GridLayouts;
  editing: boolean;
  /** A move or resize on the breakpoint shown (editing only). */
  onLayout?: (layout: LayoutItem[], bp: Breakpoint) => void;
  render: (widget: T, bp: Breakpoint) => ReactNode;
  forceBreakpoint?: Breakpoint;
}) {
  // Laid out only once the container is measured: a guess (the window's width) drew a phone's first frame wider than
  // the screen, and the breakpoint it gave could differ from the real one.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const bp = forceBreakpoint ?? breakpointFor(width);
  const layout = gridLayout(
    widgets.map((w) => w.id),
    layouts,
    bp,
  );
  const handleChange = (next: Layout) => {
    const items = next.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
    if (editing && onLayout && !sameLayout(items, layout)) onLayout(items, bp);
  };
  return (
    <Box
      ref={containerRef}
      data-testid="dashboard-grid"
      data-breakpoint={bp}
      sx={{
        width: '100%',
        '& .react-grid-item': { transition: 'none' },
        '& .react-grid-item.react-grid-placeholder': { bgcolor: 'primary.main', opacity: 0.2, borderRadius: 1 },
        '& .react-resizable-handle::after': { borderColor: 'text.secondary' },
      }}
    >
      {mounted ? (
        <ReactGridLayout
          key={bp}
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS[bp], rowHeight: ROW_HEIGHT, margin: [12, 12], containerPadding: [0, 0] }}
          dragConfig={{ enabled: editing, handle: '.widget-drag' }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          onLayoutChange={handleChange}
        >
          {widgets.map((widget) => (
            <div key={widget.id} data-testid={`grid-item-${widget.id}`}>
              {render(widget, bp)}
            </div>
          ))}
        </ReactGridLayout>
      ) : null}
    </Box>
  );
}
