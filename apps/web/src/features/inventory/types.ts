/** An item as the move and scan dialogs pass it around. */
export interface ItemChoice {
  id: number;
  code: string;
  name: string;
  unit: string;
  tracking: 'SERIAL' | 'QUANTITY';
}
