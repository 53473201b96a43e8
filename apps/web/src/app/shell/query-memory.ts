/** SPEC 2.5: breadcrumbs remember each page's query string (per tab, for the session). */
const KEY = 'breadcrumb-queries';
const MAX = 200;

function load(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

const normal = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

export function rememberQuery(pathname: string, search: string) {
  const all = load();
  const key = normal(pathname);
  if ((all[key] ?? '') === search) return;
  if (search) all[key] = search;
  else delete all[key];
  const keys = Object.keys(all);
  if (keys.length > MAX) for (const old of keys.slice(0, keys.length - MAX)) delete all[old];
  try {
    sessionStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage full or unavailable: crumbs link without their query
  }
}

/** The address with the query string the page last had. */
export function withRememberedQuery(to: string): string {
  if (to.includes('?')) return to;
  return `${to}${load()[normal(to)] ?? ''}`;
}
