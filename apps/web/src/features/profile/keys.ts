/** Query keys of the signed-in user's profile and sessions. */
export const profileKeys = {
  profile: ['auth', 'profile'] as const,
  sessions: ['auth', 'sessions'] as const,
};
