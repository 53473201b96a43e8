import { type LayoutProps, rankWith, uiTypeIs } from '@jsonforms/core';
import { JsonFormsDispatch, withJsonFormsLayoutProps } from '@jsonforms/react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { fieldControl } from './FieldControl.tsx';
import { Skin } from './skin.tsx';

type Element = { type: string; label?: string; description?: string; placeholder?: string; elements?: LayoutProps['uischema'][] };

/**
 * Fields go in blocks of FIELDS_PER_BLOCK, and a block out of view is neither laid out, painted nor hit-tested
 * (`dfs-block`, skin.tsx). One block per field would put some 200 paint layers and intersection targets in a large
 * form, and every frame of every key press walks them all.
 */
const FIELDS_PER_BLOCK = 8;

function Children({ props }: { props: LayoutProps }) {
  const elements = ((props.uischema as unknown as Element).elements ?? []) as LayoutProps['uischema'][];
  const dispatch = (element: LayoutProps['uischema'], i: number) => (
    <JsonFormsDispatch
      // Layout elements have no identity but their place.
      key={i}
      uischema={element}
      schema={props.schema}
      path={props.path}
      enabled={props.enabled}
      renderers={props.renderers}
      cells={props.cells}
    />
  );
  const blocks: LayoutProps['uischema'][][] = [];
  for (let i = 0; i < elements.length; i += FIELDS_PER_BLOCK) blocks.push(elements.slice(i, i + FIELDS_PER_BLOCK));
  return (
    <>
      {blocks.map((block, b) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
        <div key={b} className="dfs-block" style={{ containIntrinsicSize: `auto ${block.length * 72}px` }}>
          {block.map((element, i) => dispatch(element, b * FIELDS_PER_BLOCK + i))}
        </div>
      ))}
    </>
  );
}

const Vertical = memo(function Vertical(props: LayoutProps) {
  return props.visible ? (
    <Skin>
      <Children props={props} />
    </Skin>
  ) : null;
});

/** SPEC 3 Group: label, description, elements, and a placeholder message while it has none. */
const Group = memo(function Group(props: LayoutProps) {
  const group = props.uischema as unknown as Element;
  if (!props.visible) return null;
  return (
    <Skin>
      <Paper variant="outlined" component="fieldset" sx={{ p: 2, mb: 2, border: 1, borderColor: 'divider', minWidth: 0 }}>
        {group.label ? (
          <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, px: 0.5 }}>
            {group.label}
          </Typography>
        ) : null}
        {group.description ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {group.description}
          </Typography>
        ) : null}
        {group.elements?.length ? (
          <Children props={props} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {group.placeholder || 'No fields in this group yet'}
          </Typography>
        )}
      </Paper>
    </Skin>
  );
});

/** Our renderer set on MUI 9 (the published material renderers need MUI 7). */
export const formRenderers = [
  fieldControl,
  { tester: rankWith(1, uiTypeIs('VerticalLayout')), renderer: withJsonFormsLayoutProps(Vertical) },
  { tester: rankWith(1, uiTypeIs('Group')), renderer: withJsonFormsLayoutProps(Group) },
];
