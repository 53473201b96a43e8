import { DEFAULT_LOGIN_ROLE, KEPT_ACROSS_LOGOUT, STORAGE_KEYS } from '@sitewatch/contracts/constants';

/** Keys of the signed-in session in localStorage (cleared on logout, unlike STORAGE_KEYS). */
export const SESSION_KEYS = {
  user: 'user',
  access: 'access',
  refresh: 'refresh',
  customer: 'current-customer',
} as const;

/** The part of the Web Storage API this app uses; tests pass a Map-backed fake. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const memory = new Map<string, string>();
/** Used when localStorage is unavailable (some sandboxed frames, privacy modes). */
const memoryStore: KeyValueStore = {
  getItem: (k) => memory.get(k) ?? null,
  setItem: (k, v) => void memory.set(k, String(v)),
  removeItem: (k) => void memory.delete(k),
  key: (i) => [...memory.keys()][i] ?? null,
  get length() {
    return memory.size;
  },
};

export function localStore(): KeyValueStore {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // access denied: fall through to memory
  }
  return memoryStore;
}

export function readString(key: string, store: KeyValueStore = localStore()): string | null {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null, store: KeyValueStore = localStore()) {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    // quota or access errors: the value simply is not remembered
  }
}

export function readJson<T>(key: string, store: KeyValueStore = localStore()): T | null {
  const raw = readString(key, store);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, store: KeyValueStore = localStore()) {
  writeString(key, value === undefined || value === null ? null : JSON.stringify(value), store);
}

/** Clears storage on logout, keeping only the keys the specification keeps (cookie consent, login role, fab, theme). */
export function clearStorageExceptKept(store: KeyValueStore = localStore(), kept: readonly string[] = KEPT_ACROSS_LOGOUT) {
  const doomed: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null && !kept.includes(key)) doomed.push(key);
  }
  for (const key of doomed) store.removeItem(key);
  try {
    if (typeof window !== 'undefined') window.sessionStorage?.clear();
  } catch {
    // nothing to clear
  }
}

export function getLoginRole(store: KeyValueStore = localStore()): string {
  const role = readString(STORAGE_KEYS.loginRole, store);
  return role && /^[a-z]+$/.test(role) ? role : DEFAULT_LOGIN_ROLE;
}

export function setLoginRole(role: string, store: KeyValueStore = localStore()) {
  writeString(STORAGE_KEYS.loginRole, role, store);
}

/** A Map-backed store for tests and non-browser code. */
export function createMemoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}
