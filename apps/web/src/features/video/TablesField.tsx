import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** Table numbers typed or pasted together, separated by commas. */
const split = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** "Tables watched": the packing tables a camera sees, as chips; Enter, a comma or leaving the field adds one. */
export function TablesField({ value, onChange, error }: { value: string[]; onChange: (tables: string[]) => void; error?: string }) {
  const [input, setInput] = useState('');
  const set = (tables: string[]) => onChange([...new Set(tables.flatMap(split))]);
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      options={[]}
      value={value}
      inputValue={input}
      onInputChange={(_e, text, reason) => {
        if (reason === 'input' && text.includes(',')) {
          set([...value, text]);
          setInput('');
        } else setInput(text);
      }}
      onChange={(_e, tables) => set(tables)}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Tables watched"
          error={Boolean(error)}
          helperText={error ?? 'Packing tables this camera sees (e.g. T-1, T-2): an incident at one of them finds this camera'}
        />
      )}
    />
  );
}
