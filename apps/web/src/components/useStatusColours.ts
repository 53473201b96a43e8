import { useTheme } from '@mui/material/styles';
import { filledChip, readableOn } from '../lib/contrast.ts';

// Kept out of lib/ (the login page's shared chunk), which must not pull in MUI's styling.
/** Status colours for the current theme: text that passes on the page, chips with readable labels. */
export function useStatusColours() {
  const theme = useTheme();
  const { paper, default: page } = theme.palette.background;
  return {
    /** The hue as text (and the outline of an outlined chip), on the paper and on the page around it alike. */
    text: (hue: string) => readableOn(readableOn(hue, paper), page),
    filled: filledChip,
  };
}
