import { type ComponentType, lazy, Suspense } from 'react';
import { TOP_BAR_SLOTS } from './top-bar-slots.ts';

const LOADED: Array<{ id: string; Component: ComponentType }> = [...TOP_BAR_SLOTS]
  .sort((a, b) => a.order - b.order)
  .map((slot) => ({ id: slot.id, Component: lazy(() => slot.load().then((Component) => ({ default: Component }))) }));

/** The feature-owned buttons of the top bar, each loaded on its own. */
export function TopBarSlots() {
  if (!LOADED.length) return null;
  return (
    <>
      {LOADED.map(({ id, Component }) => (
        <Suspense key={id} fallback={null}>
          <Component />
        </Suspense>
      ))}
    </>
  );
}
