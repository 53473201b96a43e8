/** SPEC 2.5: inside a frame the app shows the page only (no top bar, side nav or footer). */
export function isEmbedded(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    // a cross-origin parent denies access: that is a frame too
    return true;
  }
}

export const isExtensionPath = (pathname: string) => pathname === '/extension' || pathname.startsWith('/extension/');
