/**
 * The addresses of the app's screens, in the `{param}` notation of form template views. The app fills it from the
 * route registry at start; features read it here, so none of them imports the registry (which imports them).
 */
let paths: readonly string[] = [];

export function setScreenPaths(next: readonly string[]) {
  paths = [...new Set(next)].sort();
}

export const screenPaths = (): readonly string[] => paths;
