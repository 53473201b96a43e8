/** The screens that render forms (JSON Forms, pickers, drag and drop): one chunk, loaded only when opened. */
export { BuilderPage } from './builder/BuilderPage.tsx';
export { FormCreatePage } from './FormCreatePage.tsx';
