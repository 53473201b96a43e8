import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppDeps, type AppHandles, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_PASSWORD, DEMO_TENANTS, seedFoundation } from '../../src/demo/foundation.ts';
import type { Db, DbHandle } from '../../src/platform/db.ts';
import { freshDatabase } from './database.ts';

export const CAPTCHA = 'TESTA';
export const PASSWORD = DEMO_PASSWORD;
/** Host of the first demo tenant, and of the second one. */
export const HOST_A = 'localhost';
export const HOST_B = 'acme.localhost';

export interface TestApp {
  app: FastifyInstance;
  /** The ports the modules offer (the telemetry runtime, the helpdesk sweep, notifications settled, ...). */
  handles: AppHandles;
  db: Db;
  database: DbHandle;
  tenantA: number;
  tenantB: number;
  /** A client without a session on the given host. */
  anonymous(host?: string): TestClient;
  /** A signed-in client for a demo user (username = role name). */
  login(username: string, host?: string): Promise<TestClient>;
  close(): Promise<void>;
}

/** Builds the app on a fresh database with the two demo tenants and their users. */
/** A clock that starts at the real time and moves only when told: tests step over durations instead of sleeping. */
export function createTestClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}

export interface TestAppOptions {
  decorate?: AppDeps['decorate'];
  clock?: AppDeps['clock'];
  /** The database to build on (a data folder on disk, say); a fresh one by default. */
  database?: DbHandle;
  /** The server's logger (none by default): a test that reads the log lines passes its own stream. */
  logger?: AppDeps['logger'];
}

export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO: 'false',
    CAPTCHA_FIXED_ANSWER: CAPTCHA,
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    WEB_DIST: '/nonexistent',
    ...env,
  });
  const { app, handles } = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    decorate: options.decorate,
    clock: options.clock,
  });
  await app.ready();
  const [specA, specB] = DEMO_TENANTS as [(typeof DEMO_TENANTS)[0], (typeof DEMO_TENANTS)[0]];
  const tenantA = await seedFoundation(database.db, specA);
  const tenantB = await seedFoundation(database.db, specB);
  const anonymous = (host = HOST_A) => new TestClient(app, host);
  return {
    app,
    handles,
    db: database.db,
    database,
    tenantA,
    tenantB,
    anonymous,
    async login(username, host = HOST_A) {
      const client = anonymous(host);
      await client.signIn(username);
      return client;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Talks to the app through inject() like a browser: keeps cookies, sends the CSRF header and the bearer token. */
export class TestClient {
  cookies = new Map<string, string>();
  access: string | undefined;
  refresh: string | undefined;
  user: { id: number; userRole: string[] } | undefined;

  readonly app: FastifyInstance;
  readonly host: string;

  constructor(app: FastifyInstance, host: string) {
    this.app = app;
    this.host = host;
  }

  async request(options: InjectOptions & { bearer?: boolean; csrf?: boolean }): Promise<LightMyRequestResponse> {
    if (!this.cookies.has('csrftoken') && options.method !== 'GET' && options.csrf !== false) {
      await this.request({ method: 'GET', url: '/api/auth/csrf/' });
    }
    const headers: Record<string, string> = { host: this.host, ...(options.headers as Record<string, string>) };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.csrf !== false && this.cookies.has('csrftoken')) headers['x-csrftoken'] = this.cookies.get('csrftoken') as string;
    if (options.bearer !== false && this.access) headers.authorization = `Bearer ${this.access}`;
    const response = await this.app.inject({ ...options, headers });
    for (const c of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }

  get = (url: string, extra: Partial<InjectOptions> = {}) => this.request({ method: 'GET', url, ...extra });
  post = (url: string, payload?: unknown, extra: Partial<InjectOptions> = {}) =>
    this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...extra });
  put = (url: string, payload?: unknown, extra: Partial<InjectOptions> = {}) =>
    this.request({ method: 'PUT', url, payload: payload as InjectOptions['payload'], ...extra });
  delete = (url: string, extra: Partial<InjectOptions> = {}) => this.request({ method: 'DELETE', url, ...extra });

  async captcha(): Promise<string> {
    const res = await this.get('/api/auth/captcha/');
    return res.json().captchaId;
  }

  async passwordLogin(username: string, password = PASSWORD, extra: { role?: string; captcha?: string } = {}) {
    const captchaId = await this.captcha();
    return this.post('/api/auth/login/', { username, password, captchaId, captcha: extra.captcha ?? CAPTCHA, role: extra.role ?? 'auth' });
  }

  async signIn(username: string) {
    const res = await this.passwordLogin(username);
    if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
    this.adopt(res.json());
    return res;
  }

  adopt(body: { access: string; refresh: string; user: { id: number; userRole: string[] } }) {
    this.access = body.access;
    this.refresh = body.refresh;
    this.user = body.user;
  }
}
