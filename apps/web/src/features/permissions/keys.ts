/** Query keys of permission groups, their members and the permission catalogue. */
export const permissionKeys = {
  all: ['permissions'] as const,
  catalogue: ['permissions', 'catalogue'] as const,
  groups: ['permissions', 'groups'] as const,
  members: (id: number) => ['permissions', 'members', id] as const,
};
