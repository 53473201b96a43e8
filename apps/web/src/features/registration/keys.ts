/** Query keys of registration requests. */
export const registrationKeys = {
  all: ['registrations'] as const,
  list: (status: string, page: number) => ['registrations', 'list', status, page] as const,
  one: (id: number) => ['registrations', 'one', id] as const,
};
