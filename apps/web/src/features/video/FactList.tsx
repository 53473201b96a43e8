import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Label and value pairs of an object, one per line (incident view, shared evidence page). */
export function FactList({ facts }: { facts: ReadonlyArray<readonly [string, string]> }) {
  return (
    <>
      {facts.map(([k, v]) => (
        <Box key={k} sx={{ display: 'flex', py: 0.5 }}>
          <Typography sx={{ width: 120, flexShrink: 0 }} color="text.secondary">
            {k}
          </Typography>
          <Typography>{v}</Typography>
        </Box>
      ))}
    </>
  );
}
