// The page shown when a page could not be loaded: says why (the browser is offline, the server did not answer, or it
// answered with a gateway error), polls /health and goes back to returnUrl (an in-app path only) once it answers.
(() => {
  const POLL_MS = 5000;
  const params = new URLSearchParams(window.location.search);
  const title = document.getElementById('offline-title');
  const reasonText = document.getElementById('offline-reason');
  const status = document.getElementById('offline-status');
  const retry = document.getElementById('offline-retry');
  const GATEWAY = { 502: '502 Bad Gateway', 503: '503 Service Unavailable', 504: '504 Gateway Timeout' };

  function safeReturnUrl() {
    const raw = params.get('returnUrl') || '/';
    if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
    try {
      const url = new URL(raw, window.location.origin);
      if (url.origin !== window.location.origin || url.pathname === '/offline.html') return '/';
      return url.pathname + url.search + url.hash;
    } catch {
      return '/';
    }
  }

  // The browser's own state wins: a page opened while offline says so, whatever the reason it was sent with.
  function describe() {
    const gateway = GATEWAY[params.get('reason') || ''];
    let heading = "We can't reach the server right now";
    let text = 'The server did not answer. This page checks again every few seconds and takes you back as soon as it answers.';
    if (!navigator.onLine) {
      heading = 'You are offline';
      text = 'This device has no network connection. Check your Wi-Fi or mobile data; you are taken back as soon as it is back.';
    } else if (gateway) {
      text = `The server answered ${gateway}: the service is temporarily unavailable. This page checks again every few seconds and takes you back as soon as it answers.`;
    }
    if (title) title.textContent = heading;
    if (reasonText) reasonText.textContent = text;
    document.title = `${heading} · Sitewatch`;
  }

  let timer;
  async function check() {
    clearTimeout(timer);
    describe();
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
    describe();
    if (status) status.textContent = navigator.onLine ? 'Still unreachable. Next check in a few seconds.' : 'Waiting for the network…';
    timer = setTimeout(check, POLL_MS);
  }

  describe();
  if (retry) retry.addEventListener('click', check);
  window.addEventListener('online', check);
  window.addEventListener('offline', describe);
  timer = setTimeout(check, POLL_MS);
})();
