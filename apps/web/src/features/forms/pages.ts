/** The list screens: one chunk, one entry in the main bundle's route table. */
export { FormsListPage } from './FormsListPage.tsx';
export { ResponsesPage } from './ResponsesPage.tsx';
