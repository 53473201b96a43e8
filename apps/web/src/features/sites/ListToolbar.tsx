import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** Search box, filters, export and create above a list. */
export function ListToolbar(props: {
  search: string;
  onSearch(value: string): void;
  placeholder: string;
  filters?: ReactNode;
  /** Gets the button, for callers that open a menu of export choices at it. */
  onExport?: (anchor: HTMLElement) => void;
  exporting?: boolean;
  createTo?: string;
  createLabel?: string;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
      <TextField
        size="small"
        value={props.search}
        onChange={(e) => props.onSearch(e.target.value)}
        placeholder={props.placeholder}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { 'aria-label': props.placeholder, 'data-testid': 'list-search' },
        }}
        sx={{ width: { xs: '100%', sm: 320 } }}
      />
      {/* The theme makes text fields full width; filters sit side by side. */}
      <Box sx={{ display: 'contents', '& > .MuiTextField-root': { width: { xs: '100%', sm: 190 } } }}>{props.filters}</Box>
      <Box sx={{ flex: 1 }} />
      {props.onExport ? (
        <Button
          onClick={(e) => props.onExport?.(e.currentTarget)}
          disabled={props.exporting}
          startIcon={props.exporting ? <CircularProgress size={16} /> : <DownloadIcon />}
          data-testid="list-export"
        >
          Export
        </Button>
      ) : null}
      {props.createTo ? (
        <Button component={Link} to={props.createTo} variant="contained" startIcon={<AddIcon />} data-testid="list-create">
          {props.createLabel ?? 'Create'}
        </Button>
      ) : null}
    </Box>
  );
}
