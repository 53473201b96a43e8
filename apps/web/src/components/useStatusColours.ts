import { useTheme } from '@mui/material/styles';
import { filledChip, overlay, readableOn } from '../lib/contrast.ts';

// Kept out of lib/ (the login page's shared chunk), which must not pull in MUI's styling.
/** Status colours for the current theme: text that passes on the page, chips with readable labels. */
export function useStatusColours() {
  const theme = useTheme();
  const { paper, default: page } = theme.palette.background;
  // a table row under the pointer, or selected, is tinted: the text stays readable there too
  const tinted = overlay(paper, theme.palette.action.selected);
  return {
    /** The hue as text (and the outline of an outlined chip), on the paper, the page and a tinted row alike. */
    text: (hue: string) => readableOn(readableOn(readableOn(hue, paper), page), tinted),
    filled: filledChip,
  };
}
