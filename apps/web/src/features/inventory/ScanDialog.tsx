import { CodeScanDialog } from '../../components/CodeScanDialog.tsx';
import { findItemByCode } from './api.ts';
import type { ItemChoice } from './types.ts';

/** A label holds the item's code (or a link carrying it as `?code=`). */
const codeOf = (text: string) => {
  const trimmed = text.trim();
  const fromUrl = /[?&]code=([^&]+)/.exec(trimmed);
  return fromUrl?.[1] ? decodeURIComponent(fromUrl[1]) : trimmed;
};

/** Scans an item label with the phone's camera (or takes its typed code) and finds the item. */
export function ScanDialog(props: { open: boolean; onClose(): void; onFound(item: ItemChoice): void }) {
  const lookUp = async (text: string) => {
    const wanted = codeOf(text);
    try {
      const item = (await findItemByCode(wanted)).contents[0];
      if (!item) return `No item has the code ${wanted}`;
      props.onFound({ id: item.id, code: item.code, name: item.name, unit: item.unit, tracking: item.tracking });
      return null;
    } catch {
      return 'The item could not be looked up. Please try again.';
    }
  };
  return <CodeScanDialog open={props.open} title="Scan item label" onClose={props.onClose} onCode={lookUp} />;
}
