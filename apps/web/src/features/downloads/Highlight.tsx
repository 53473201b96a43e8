import Box from '@mui/material/Box';
import { highlightParts } from './grouping.ts';

/** The text with the parts matching the search marked. */
export function Highlight({ text, query }: { text: string; query: string }) {
  let offset = 0;
  const parts = highlightParts(text, query).map((part) => {
    const at = offset;
    offset += part.text.length;
    return { ...part, at };
  });
  return (
    <>
      {parts.map((part) =>
        part.match ? (
          <Box
            key={part.at}
            component="mark"
            sx={{ bgcolor: 'warning.light', color: 'inherit', borderRadius: 0.5, px: 0.25 }}
            data-testid="search-highlight"
          >
            {part.text}
          </Box>
        ) : (
          <span key={part.at}>{part.text}</span>
        ),
      )}
    </>
  );
}
