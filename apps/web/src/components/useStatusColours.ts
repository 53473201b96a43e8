import { useTheme } from '@mui/material/styles';
import { filledChip, readableOn } from '../lib/contrast.ts';

// Kept out of lib/ (the login page's shared chunk), which must not pull in MUI's styling.
/** Status colours for the current theme: text that passes on the page, chips with readable labels. */
export function useStatusColours() {
  const theme = useTheme();
  const paper = theme.palette.background.paper;
  return {
    /** The hue as text (and the outline of an outlined chip) on the page's paper. */
    text: (hue: string) => readableOn(hue, paper),
    filled: filledChip,
  };
}
