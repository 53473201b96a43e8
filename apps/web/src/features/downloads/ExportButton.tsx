import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import { useStartExport } from './api.ts';

interface Props extends Omit<ButtonProps, 'onClick'> {
  /** The export source (`tickets`, `site-summary`, ...). */
  kind: string;
  /** The filters of the screen, passed to the source. */
  params?: Record<string, unknown>;
  /** File name without extension. */
  fileName?: string;
  label?: string;
}

/**
 * For other screens (ticket list, site summary, device lists): runs their export in the background; the job then
 * shows in the download button and on /downloads.
 */
export function ExportButton({ kind, params, fileName, label = 'Export', ...rest }: Props) {
  const start = useStartExport();
  return (
    <Button
      startIcon={<FileDownloadOutlined />}
      {...rest}
      disabled={rest.disabled || start.isPending}
      onClick={() => start.mutate({ kind, params: params ?? {}, ...(fileName ? { name: fileName } : {}) })}
    >
      {label}
    </Button>
  );
}
