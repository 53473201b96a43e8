/** The live popup cameras kept in this browser (/camview/popups, and the /extension panel). */
export const POPUP_STORE = 'camview-popups';
/** At most this many popups play at once (each is a live stream). */
export const MAX_OPEN = 4;

export interface PopupState {
  /** The cameras on the popup list, in order. */
  ids: number[];
  /** Those shown as floating live popups now. */
  open: number[];
}

export function loadPopups(): PopupState {
  try {
    const saved = JSON.parse(localStorage.getItem(POPUP_STORE) ?? '') as PopupState;
    if (Array.isArray(saved.ids) && Array.isArray(saved.open)) return saved;
  } catch {
    // nothing saved yet
  }
  return { ids: [], open: [] };
}
