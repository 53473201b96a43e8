import { alpha, styled, type Theme } from '@mui/material/styles';
import { createContext, type ReactNode, useContext } from 'react';

/**
 * The look of the form screen's fields, as MUI draws them (small outlined text field, Radio, ToggleButton, Switch,
 * Rating, FormHelperText), given by class to plain inputs and buttons under one styled element per layout. A form
 * of 200 fields then mounts no styled element per field: MUI's own controls cost some ten styled elements each
 * (form control, input base, outline, button base, ripple, icons...), whose styles are worked out again for every
 * instance, and that made most of a large form's first render.
 */
const outlined = (theme: Theme) => {
  const light = theme.palette.mode === 'light';
  return {
    boxSizing: 'border-box',
    display: 'block',
    width: '100%',
    minWidth: 0,
    height: 40,
    margin: 0,
    padding: '8.5px 14px',
    font: 'inherit',
    fontSize: theme.typography.pxToRem(16),
    lineHeight: '1.4375em',
    letterSpacing: 'inherit',
    color: theme.palette.text.primary,
    background: 'none',
    border: `1px solid ${light ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)'}`,
    borderRadius: theme.shape.borderRadius,
    outline: 'none',
    '&::placeholder': { color: 'currentColor', opacity: light ? 0.42 : 0.5 },
    '&:hover': { borderColor: theme.palette.text.primary },
    '&:focus': { borderColor: theme.palette.primary.main, boxShadow: `inset 0 0 0 1px ${theme.palette.primary.main}` },
    '&[aria-invalid="true"]': { borderColor: theme.palette.error.main },
    '&[aria-invalid="true"]:focus': { boxShadow: `inset 0 0 0 1px ${theme.palette.error.main}` },
    '&:disabled': {
      cursor: 'default',
      color: theme.palette.text.disabled,
      WebkitTextFillColor: theme.palette.text.disabled,
      borderColor: theme.palette.action.disabled,
    },
  } as const;
};

const helperText = (theme: Theme) => ({ ...theme.typography.caption, textAlign: 'left', margin: '3px 0 0' }) as const;
const hover = (theme: Theme, color: string) => alpha(color, theme.palette.action.hoverOpacity);
const focus = (theme: Theme, color: string) => alpha(color, theme.palette.action.focusOpacity);

const fieldRules = (theme: Theme) => ({
  // Blocks of fields out of view are neither laid out nor painted: a key press in a 200-field form repaints what is
  // in view (layouts.tsx).
  '& .dfs-block': { contentVisibility: 'auto' },
  '& .dfs-field': { marginBottom: theme.spacing(2) },
  '& .dfs-head': { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5), marginBottom: theme.spacing(0.5) },
  '& .dfs-label': { ...theme.typography.body2, fontWeight: 600, margin: 0 },
  '& .dfs-required': { color: theme.palette.error.main, marginLeft: theme.spacing(0.25) },
  '& .dfs-help': { ...helperText(theme), color: theme.palette.text.secondary, marginTop: theme.spacing(0.5) },
  '& .dfs-error': { ...helperText(theme), color: theme.palette.error.main },
  '& .dfs-sr': {
    border: 0,
    clip: 'rect(0 0 0 0)',
    height: 1,
    margin: -1,
    overflow: 'hidden',
    padding: 0,
    position: 'absolute',
    whiteSpace: 'nowrap',
    width: 1,
  },
  '& .dfs-input': outlined(theme),
  // A single-line input is sized by its style alone, so the text typed into it lays out that input and nothing
  // around it.
  '& input.dfs-input': { contain: 'strict' },
  // MUI's multiline field: three lines at least, growing with its text.
  '& textarea.dfs-input': { height: 'auto', minHeight: 'calc(3 * 1.4375em + 17px)', resize: 'vertical', fieldSizing: 'content' },
});

const pickerRules = (theme: Theme) => ({
  '& .dfs-picker': { position: 'relative', width: '100%' },
  '& .dfs-picker > input': { paddingRight: 44, cursor: 'text' },
  '& .dfs-picker > svg': {
    position: 'absolute',
    right: 14,
    top: 8,
    width: 24,
    height: 24,
    fill: theme.palette.action.active,
    pointerEvents: 'none',
  },
  '& .dfs-picker > input:disabled + svg': { fill: theme.palette.action.disabled },
  // A number input with its label on the outline, as MUI's TextField with a shrunk label.
  '& .dfs-part': { position: 'relative', width: 110 },
  '& .dfs-part > label': {
    position: 'absolute',
    left: 9,
    top: -9,
    padding: '0 5px',
    fontFamily: theme.typography.fontFamily,
    fontSize: theme.typography.pxToRem(12),
    lineHeight: '18px',
    color: theme.palette.text.secondary,
    backgroundColor: theme.palette.background.paper,
    pointerEvents: 'none',
  },
  '& .dfs-part > input:focus + label': { color: theme.palette.primary.main },
  '& .dfs-part > input[aria-invalid="true"] + label': { color: theme.palette.error.main },
  '& .dfs-part > input:disabled + label': { color: theme.palette.text.disabled },
});

const radioRules = (theme: Theme) => ({
  '& .dfs-radios': { display: 'flex', flexDirection: 'column', flexWrap: 'wrap' },
  '& .dfs-radios.row': { flexDirection: 'row' },
  '& .dfs-radios > label': {
    ...theme.typography.body1,
    display: 'inline-flex',
    alignItems: 'center',
    width: 'fit-content',
    margin: '0 16px 0 -11px',
    cursor: 'pointer',
    WebkitTapHighlightColor: 'transparent',
  },
  '& .dfs-radios > label.disabled': { color: theme.palette.text.disabled, cursor: 'default' },
  '& .dfs-radios input': {
    appearance: 'none',
    flex: 'none',
    display: 'grid',
    placeContent: 'center',
    boxSizing: 'border-box',
    width: 38,
    height: 38,
    margin: 0,
    borderRadius: '50%',
    color: theme.palette.text.secondary,
    cursor: 'inherit',
    outline: 'none',
    '&::before': {
      content: '""',
      boxSizing: 'border-box',
      width: 16.67,
      height: 16.67,
      border: '1.67px solid currentColor',
      borderRadius: '50%',
    },
    '&:checked': { color: theme.palette.primary.main },
    '&:checked::before': { background: 'radial-gradient(circle, currentColor 0 4.1px, transparent 4.6px)' },
    '&:hover': { backgroundColor: hover(theme, theme.palette.action.active) },
    '&:checked:hover': { backgroundColor: hover(theme, theme.palette.primary.main) },
    '&:focus-visible': { backgroundColor: focus(theme, theme.palette.action.active) },
    '&:checked:focus-visible': { backgroundColor: focus(theme, theme.palette.primary.main) },
    '&:disabled': { color: theme.palette.action.disabled, backgroundColor: 'transparent' },
  },
});

const toggleRules = (theme: Theme) => {
  const text = theme.palette.text.primary;
  const selected = alpha(text, theme.palette.action.selectedOpacity);
  return {
    '& .dfs-toggles': {
      display: 'inline-flex',
      flexWrap: 'wrap',
      minWidth: 0,
      margin: 0,
      padding: 0,
      border: 0,
      borderRadius: theme.shape.borderRadius,
    },
    '& .dfs-toggles > button': {
      ...theme.typography.button,
      boxSizing: 'border-box',
      margin: 0,
      padding: 7,
      fontSize: theme.typography.pxToRem(13),
      borderRadius: 0,
      border: `1px solid ${theme.palette.divider}`,
      color: theme.palette.action.active,
      background: 'none',
      cursor: 'pointer',
      outline: 0,
      WebkitTapHighlightColor: 'transparent',
      '&:first-of-type': { borderTopLeftRadius: theme.shape.borderRadius, borderBottomLeftRadius: theme.shape.borderRadius },
      '&:last-of-type': { borderTopRightRadius: theme.shape.borderRadius, borderBottomRightRadius: theme.shape.borderRadius },
      '& + button': { marginLeft: -1, borderLeftColor: 'transparent' },
      '&:hover': { backgroundColor: hover(theme, text) },
      '&:focus-visible': { backgroundColor: focus(theme, text) },
      '&[aria-pressed="true"]': { color: text, backgroundColor: selected },
      '&[aria-pressed="true"]:hover': {
        backgroundColor: alpha(text, theme.palette.action.selectedOpacity + theme.palette.action.hoverOpacity),
      },
      '&:disabled': { color: theme.palette.action.disabled, cursor: 'default', backgroundColor: 'transparent' },
      '&[aria-pressed="true"]:disabled': { backgroundColor: selected },
    },
    '& .dfs-toggles.medium > button': { padding: 11, fontSize: theme.typography.pxToRem(14) },
    '& .dfs-toggles.large > button': { padding: 15, fontSize: theme.typography.pxToRem(15) },
  };
};

/** MUI's Switch (medium): a 34×14 track and a 20 px thumb that slides 20 px, primary when on. */
const switchRules = (theme: Theme) => {
  const light = theme.palette.mode === 'light';
  const ring = (color: string, f: typeof hover) => `${theme.shadows[1]}, 0 0 0 9px ${f(theme, color)}`;
  const slide = theme.transitions.create(['transform', 'box-shadow', 'background-color'], {
    duration: theme.transitions.duration.shortest,
  });
  return {
    '& .dfs-switch': {
      appearance: 'none',
      position: 'relative',
      display: 'inline-block',
      verticalAlign: 'middle',
      boxSizing: 'border-box',
      width: 58,
      height: 38,
      margin: 0,
      cursor: 'pointer',
      outline: 'none',
      WebkitTapHighlightColor: 'transparent',
      '&::before': {
        content: '""',
        position: 'absolute',
        left: 12,
        top: 12,
        width: 34,
        height: 14,
        borderRadius: 7,
        backgroundColor: light ? theme.palette.common.black : theme.palette.common.white,
        opacity: light ? 0.38 : 0.3,
      },
      '&::after': {
        content: '""',
        position: 'absolute',
        left: 9,
        top: 9,
        width: 20,
        height: 20,
        borderRadius: '50%',
        backgroundColor: light ? theme.palette.common.white : theme.palette.grey[300],
        boxShadow: theme.shadows[1],
        transition: slide,
      },
      '&:hover::after': { boxShadow: ring(theme.palette.action.active, hover) },
      '&:focus-visible::after': { boxShadow: ring(theme.palette.action.active, focus) },
      '&:checked::before': { backgroundColor: theme.palette.primary.main, opacity: 0.5 },
      '&:checked::after': { transform: 'translateX(20px)', backgroundColor: theme.palette.primary.main },
      '&:checked:hover::after': { boxShadow: ring(theme.palette.primary.main, hover) },
      '&:checked:focus-visible::after': { boxShadow: ring(theme.palette.primary.main, focus) },
      '&:disabled': { cursor: 'default' },
      '&:disabled::before': { opacity: light ? 0.12 : 0.2 },
      '&:disabled::after': { backgroundColor: light ? theme.palette.grey[100] : theme.palette.grey[600], boxShadow: theme.shadows[1] },
    },
  };
};

/** MUI's Rating: gold stars, empty ones grey, the one hovered or focused a little larger (and ringed when focused). */
const ratingRules = (theme: Theme) => ({
  '& .dfs-rating': {
    display: 'inline-flex',
    position: 'relative',
    fontSize: theme.typography.pxToRem(24),
    color: '#faaf00',
    textAlign: 'left',
    WebkitTapHighlightColor: 'transparent',
  },
  '& .dfs-rating.small': { fontSize: theme.typography.pxToRem(18) },
  '& .dfs-rating.large': { fontSize: theme.typography.pxToRem(30) },
  '& .dfs-rating.disabled': { opacity: theme.palette.action.disabledOpacity, pointerEvents: 'none' },
  '& .dfs-rating > label': { cursor: 'pointer', display: 'flex' },
  '& .dfs-rating svg': {
    width: '1em',
    height: '1em',
    fill: 'currentColor',
    transition: theme.transitions.create('transform', { duration: theme.transitions.duration.shortest }),
  },
  // Empty stars stand 3:1 on the page (WCAG 1.4.11), and the focused star, empty or not, has a visible ring.
  '& .dfs-rating > label.empty': { color: theme.palette.action.active },
  '& .dfs-rating > label.hovered svg': { transform: 'scale(1.2)' },
  '& .dfs-rating > input:focus-visible + label': {
    outline: `2px solid ${theme.palette.primary.main}`,
    outlineOffset: 1,
    borderRadius: 2,
  },
  '& .dfs-rating > input:focus-visible + label svg': { transform: 'scale(1.2)' },
});

export const FormSkin = styled('div')(({ theme }) => ({
  ...fieldRules(theme),
  ...pickerRules(theme),
  ...radioRules(theme),
  ...toggleRules(theme),
  ...switchRules(theme),
  ...ratingRules(theme),
}));

const Skinned = createContext(false);

/** The fields below carry the form's look: given once by the outermost layout (or by a field that stands alone). */
export function Skin({ children }: { children: ReactNode }) {
  if (useContext(Skinned)) return children;
  return (
    <Skinned.Provider value>
      <FormSkin>{children}</FormSkin>
    </Skinned.Provider>
  );
}
