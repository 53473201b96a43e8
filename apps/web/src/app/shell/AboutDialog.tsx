import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useAppVersion, type VersionInfo } from '../../features/tenant-settings/api.ts';
import { useVideoTools } from '../../features/video/api.ts';

/** SPEC 2.6: each line only when the server gives a value. */
const LINES: Array<{ key: keyof VersionInfo; label: string }> = [
  { key: 'gen4', label: 'about.version' },
  { key: 'IOTFW', label: 'about.iotFramework' },
  { key: 'iotGateway', label: 'about.iotGatewayFramework' },
  { key: 'AIFW', label: 'about.aiFramework' },
  { key: 'analyticsFW', label: 'about.analyticsFramework' },
];

export function AboutDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const version = useAppVersion(open);
  const tools = useVideoTools(open);
  const lines = [
    ...LINES.filter((line) => version.data?.[line.key]).map((line) => ({
      key: line.key,
      label: t(line.label),
      value: version.data?.[line.key],
    })),
    ...(['ffmpeg', 'ffprobe'] as const).map((name) => ({
      key: name,
      label: name,
      value: tools.data ? (tools.data[name] ?? t('about.notInstalled')) : undefined,
    })),
  ].filter((line) => line.value);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="about-title" maxWidth="xs" fullWidth data-testid="about-dialog">
      <DialogTitle id="about-title">{t('about.title')}</DialogTitle>
      <DialogContent>
        {version.isLoading ? (
          <CircularProgress aria-label={t('app.loading')} />
        ) : lines.length ? (
          <Table size="small">
            <TableBody>
              {lines.map((line) => (
                <TableRow key={line.key} data-testid={`about-${line.key}`}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600, pl: 0 }}>
                    {line.label}
                  </TableCell>
                  <TableCell>{line.value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography color="text.secondary">{t('about.none')}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t('app.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
