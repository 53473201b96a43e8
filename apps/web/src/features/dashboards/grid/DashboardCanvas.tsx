import LiveTvOutlined from '@mui/icons-material/LiveTvOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type DashboardComponent, type LayoutItem, WIDGET_KIND_LABELS, type Widget } from '@sitewatch/contracts/dashboards';
import { useMemo } from 'react';
import type { WidgetSource } from '../api.ts';
import { createRangeStore, RangeContext, useRangeStore, useSelectedRange } from '../range-sync.ts';
import { InView } from '../widgets/InView.tsx';
import { WidgetBody } from '../widgets/WidgetBody.tsx';
import { DashboardGrid } from './DashboardGrid.tsx';
import type { Breakpoint, GridLayouts } from './layout.ts';
import { WidgetFrame } from './WidgetFrame.tsx';

export const widgetTitle = (widget: Widget, components: readonly DashboardComponent[]) => {
  if (widget.title) return widget.title;
  if (widget.kind === 'component') return components.find((c) => c.id === widget.componentId)?.name ?? WIDGET_KIND_LABELS.component;
  return WIDGET_KIND_LABELS[widget.kind];
};

/**
 * A dashboard on screen: its grid of widgets with one shared chart range (camera tiles play it back, ticket widgets
 * are filtered to it) and the "Back to live" control while a range is chosen. `sourceOf` says how each widget
 * fetches (saved, draft preview, shared link).
 */
export function DashboardCanvas({
  widgets,
  layouts,
  components,
  sourceOf,
  editing = false,
  onLayout,
  onConfigure,
  onRemove,
  refetchInterval = false,
  breakpoint,
}: {
  widgets: readonly Widget[];
  layouts: GridLayouts;
  components: readonly DashboardComponent[];
  sourceOf: (widget: Widget) => WidgetSource;
  editing?: boolean;
  onLayout?: (layout: LayoutItem[], bp: Breakpoint) => void;
  onConfigure?: (widget: Widget) => void;
  onRemove?: (widget: Widget) => void;
  refetchInterval?: number | false;
  /** The editor shows one grid regardless of width (arranging the small-screen layout). */
  breakpoint?: Breakpoint;
}) {
  const store = useMemo(() => createRangeStore(), []);
  return (
    <RangeContext.Provider value={store}>
      <RangeBanner />
      <DashboardGrid
        widgets={widgets}
        layouts={layouts}
        editing={editing}
        onLayout={onLayout}
        forceBreakpoint={breakpoint}
        render={(widget) => (
          <WidgetFrame
            id={widget.id}
            title={widgetTitle(widget, components)}
            editing={editing}
            onConfigure={onConfigure ? () => onConfigure(widget) : undefined}
            onRemove={onRemove ? () => onRemove(widget) : undefined}
          >
            <InView>
              {(visible) => (
                <WidgetBody
                  widget={widget}
                  components={components}
                  source={sourceOf(widget)}
                  visible={visible}
                  refetchInterval={refetchInterval}
                />
              )}
            </InView>
          </WidgetFrame>
        )}
      />
    </RangeContext.Provider>
  );
}

function RangeBanner() {
  const range = useSelectedRange();
  const store = useRangeStore();
  if (!range) return null;
  const fmt = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <Box sx={{ position: 'sticky', top: 0, zIndex: 5, mb: 1 }}>
      <Alert
        severity="info"
        data-testid="range-banner"
        action={
          <Button color="inherit" size="small" startIcon={<LiveTvOutlined />} onClick={() => store.select(null)} data-testid="back-to-live">
            Back to live
          </Button>
        }
      >
        Showing {fmt(range.from)} – {fmt(range.to)}: cameras play back this range, ticket widgets are filtered to it
      </Alert>
    </Box>
  );
}
