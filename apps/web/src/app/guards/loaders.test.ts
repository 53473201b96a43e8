import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  user: null as null | { userRole: string[] },
  role: 'auth',
  currentLogin: vi.fn(),
  saved: [] as unknown[],
  leaving: false,
  mismatch: vi.fn(),
}));

vi.mock('../../lib/api.ts', () => ({ api: { get: (...args: unknown[]) => state.currentLogin(...args) } }));
vi.mock('../../lib/http.ts', () => ({ http: { isLeaving: () => state.leaving } }));
vi.mock('../../lib/session.ts', () => ({
  getUser: () => state.user,
  hasRole: (user: { userRole: string[] } | null, ...roles: string[]) => Boolean(user?.userRole.some((r) => roles.includes(r))),
  saveLogin: (login: unknown) => state.saved.push(login),
  violatesLoginRole: (user: { userRole: string[] }) => state.role !== 'auth' && !user.userRole.includes(state.role),
  logoutForRoleMismatch: () => state.mismatch(),
}));
vi.mock('../../lib/storage.ts', () => ({ getLoginRole: () => state.role }));

const { loaderFor } = await import('./loaders.ts');

const args = (url: string) => ({ request: new Request(`http://localhost${url}`), params: {}, context: undefined }) as never;
const route = (extra: object = {}) => ({ path: '/x', layout: 'main' as const, page: async () => () => null, ...extra });

async function outcome(run: unknown): Promise<{ status?: number; location?: string | null; value?: unknown }> {
  try {
    return { value: await (typeof run === 'function' ? run() : run) };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get('Location') };
    throw thrown;
  }
}

beforeEach(() => {
  state.user = null;
  state.role = 'auth';
  state.saved = [];
  state.leaving = false;
  state.currentLogin.mockReset();
  state.mismatch.mockReset();
});

describe('login check (SPEC 2.1)', () => {
  it('goes on without a call when user info is stored', async () => {
    state.user = { userRole: ['customer'] };
    expect(await outcome(loaderFor(route())?.(args('/x')))).toEqual({ value: null });
    expect(state.currentLogin).not.toHaveBeenCalled();
  });

  it('asks /current-login/ when nothing is stored, stores the answer and goes on', async () => {
    const login = { user: { userRole: ['customer'] }, access: 'a', refresh: 'r' };
    state.currentLogin.mockResolvedValue(login);
    expect(await outcome(loaderFor(route())?.(args('/x?y=1')))).toEqual({ value: null });
    expect(state.currentLogin).toHaveBeenCalledWith('/current-login/');
    expect(state.saved).toEqual([login]);
  });

  it('otherwise goes to /{role}/login/?next={path and query}', async () => {
    state.role = 'vendor';
    state.currentLogin.mockRejectedValue(new Error('401'));
    expect(await outcome(loaderFor(route())?.(args('/tickets/all?status=OPEN')))).toEqual({
      status: 302,
      location: '/vendor/login/?next=%2Ftickets%2Fall%3Fstatus%3DOPEN',
    });
  });

  it('applies the login-role rule of SPEC 5 to a session found by /current-login/', async () => {
    state.role = 'vendor';
    state.currentLogin.mockResolvedValue({ user: { userRole: ['customer'] }, access: 'a', refresh: 'r' });
    const result = await outcome(loaderFor(route())?.(args('/x')));
    expect(state.mismatch).toHaveBeenCalled();
    expect(result).toEqual({ status: 302, location: '/auth/login/?next=%2Fx' });
    expect(state.saved).toEqual([]);
  });

  it('applies the login-role rule to stored user info too: resets the role, logs out, goes to /auth/login/', async () => {
    state.role = 'vendor';
    state.user = { userRole: ['customer'] };
    const result = await outcome(loaderFor(route())?.(args('/tickets/all')));
    expect(state.mismatch).toHaveBeenCalled();
    expect(result).toEqual({ status: 302, location: '/auth/login/?next=%2Ftickets%2Fall' });
    expect(state.currentLogin).not.toHaveBeenCalled();
  });

  it('sends users without the route’s role to /access-denied', async () => {
    state.user = { userRole: ['customer'] };
    expect(await outcome(loaderFor(route({ roles: ['sysadmin'] }))?.(args('/app-admin')))).toEqual({
      status: 302,
      location: '/access-denied',
    });
  });

  it('sends users the route’s permission rule refuses to /access-denied', async () => {
    state.user = { userRole: ['customer'] };
    const allow = (user: { userRole: string[] }, params: { type?: string }) =>
      user.userRole.includes('customer') && params.type === 'TICKET';
    const guarded = loaderFor(route({ allow }));
    const run = (type: string) => guarded?.({ request: new Request('http://localhost/x'), params: { type }, context: undefined } as never);
    expect(await outcome(() => run('WORKORDERTICKET'))).toEqual({ status: 302, location: '/access-denied' });
    expect(await outcome(() => run('TICKET'))).toEqual({ value: null });
  });

  it('has no loader for routes without a login check', () => {
    expect(loaderFor(route({ access: 'public' }))).toBeUndefined();
  });

  it('sends a signed-in user from a login page to /', async () => {
    state.user = { userRole: ['customer'] };
    expect(await outcome(() => loaderFor(route({ access: 'guest' }))?.(args('/auth/login')))).toEqual({ status: 302, location: '/' });
    state.user = null;
    expect(await outcome(() => loaderFor(route({ access: 'guest' }))?.(args('/auth/login')))).toEqual({ value: null });
  });
});
