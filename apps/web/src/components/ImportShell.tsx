import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { alpha, type SxProps, type Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef, useState } from 'react';
import { ScrollRegion } from './ScrollRegion.tsx';

/**
 * The file step of a CSV import: a "Choose CSV file" button over a hidden file input (`testId` names the input),
 * the chosen file's name, and `children` (the import's own actions) on the same line. `droppable` makes the line a
 * drop zone for the file as well.
 */
export function CsvFilePicker(props: {
  testId: string;
  fileName: string | null;
  disabled: boolean;
  onFile(file: File | null): void;
  droppable?: boolean;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const content = (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid={props.testId}
        onChange={(e) => {
          props.onFile(e.target.files?.[0] ?? null);
          e.target.value = '';
        }}
      />
      <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => input.current?.click()} disabled={props.disabled}>
        Choose CSV file
      </Button>
      {props.droppable ? (
        <Typography variant="body2" color="text.secondary">
          or drop it here
        </Typography>
      ) : null}
      {props.fileName ? <Chip label={props.fileName} /> : null}
      {props.children}
    </>
  );
  const line = { display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' } as const;
  if (!props.droppable) return <Box sx={line}>{content}</Box>;
  return (
    <Box
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (!props.disabled) props.onFile(e.dataTransfer.files[0] ?? null);
      }}
      sx={{
        ...line,
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 2,
        bgcolor: (theme) => (dragging ? alpha(theme.palette.primary.main, 0.08) : undefined),
      }}
    >
      {content}
    </Box>
  );
}

export interface ImportColumn<T> {
  key: string;
  label: ReactNode;
  cell(row: T): ReactNode;
  sx?: SxProps<Theme>;
}

/**
 * A table of an import's rows (its preview, its errors, the rows that failed), scrolling sideways on a narrow screen.
 * Rows that `invalid` picks are tinted with the error colour, a tint that keeps the text readable in both themes.
 */
export function ImportRowsTable<T>(props: {
  rows: readonly T[];
  columns: readonly ImportColumn<T>[];
  rowKey(row: T): string | number;
  invalid?(row: T): boolean;
  rowTestId?(row: T): string | undefined;
  /** The table's name, and its scrolling region's. */
  ariaLabel: string;
}) {
  return (
    <ScrollRegion label={props.ariaLabel}>
      <Table size="small" aria-label={props.ariaLabel}>
        <TableHead>
          <TableRow>
            {props.columns.map((c) => (
              <TableCell key={c.key}>{c.label}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {props.rows.map((row) => (
            <TableRow
              key={props.rowKey(row)}
              data-testid={props.rowTestId?.(row)}
              sx={
                props.invalid?.(row)
                  ? { bgcolor: (theme) => alpha(theme.palette.error.main, theme.palette.mode === 'dark' ? 0.28 : 0.12) }
                  : undefined
              }
            >
              {props.columns.map((c) => (
                <TableCell key={c.key} sx={c.sx}>
                  {c.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
