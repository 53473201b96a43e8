/** Query keys of the downloads job centre and export sources. */
export const downloadKeys = {
  all: ['downloads'] as const,
  list: ['downloads', 'list'] as const,
  sources: ['downloads', 'sources'] as const,
};
