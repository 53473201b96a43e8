/** Query keys of the user activity log. */
export const activityLogKeys = {
  all: ['activity-log'] as const,
  list: (filters: object) => ['activity-log', filters] as const,
};
