/** What user administration asks of the auth module about a user's sessions (auth owns the sessions table). */
export interface UserSessionsPort {
  list(
    tenantId: number,
    userId: number,
  ): Promise<{ id: string; created_at: Date; last_seen_at: Date; user_agent: string | null; ip: string | null; login_method: string }[]>;
  lastSignIns(tenantId: number, userIds: number[]): Promise<Map<number, Date>>;
  endAll(tenantId: number, userId: number): Promise<void>;
  refresh(userId: number): void;
  refreshAll(): void;
}
