// Bad-gateway page: polls /health and goes back to returnUrl (an in-app path only) once the server answers.
(() => {
  const POLL_MS = 5000;
  const status = document.getElementById('offline-status');
  const retry = document.getElementById('offline-retry');

  function safeReturnUrl() {
    const raw = new URLSearchParams(window.location.search).get('returnUrl') || '/';
    if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
    try {
      const url = new URL(raw, window.location.origin);
      if (url.origin !== window.location.origin || url.pathname === '/offline.html') return '/';
      return url.pathname + url.search + url.hash;
    } catch {
      return '/';
    }
  }

  let timer;
  async function check() {
    clearTimeout(timer);
    if (status) status.textContent = 'Checking…';
    try {
      const response = await fetch('/health', { cache: 'no-store', credentials: 'same-origin' });
      if (response.ok) {
        if (status) status.textContent = 'The server is back. Taking you back…';
        window.location.replace(safeReturnUrl());
        return;
      }
    } catch {
      // still offline
    }
    if (status) status.textContent = 'Still unreachable. Next check in a few seconds.';
    timer = setTimeout(check, POLL_MS);
  }

  if (retry) retry.addEventListener('click', check);
  timer = setTimeout(check, POLL_MS);
})();
