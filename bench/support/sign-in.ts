/**
 * Signs a demo account in through the HTTP API with the fixed test captcha (CAPTCHA_FIXED_ANSWER of the server
 * under test) and returns the session cookie header and the access token, for load generators.
 */
export async function signIn(base: string, captcha: string, username = 'customeradmin', password = 'Demo@2026!') {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [k, v] = ((c.split(';')[0] as string) ?? '').split('=');
      jar.set(k as string, v as string);
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  // as the web app does before its first unsafe request
  keep(await fetch(`${base}/api/auth/csrf/`));
  const challenge = await fetch(`${base}/api/auth/captcha/`);
  keep(challenge);
  const { captchaId } = (await challenge.json()) as { captchaId: string };
  const res = await fetch(`${base}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookie(), 'x-csrftoken': jar.get('csrftoken') as string },
    body: JSON.stringify({ username, password, captchaId, captcha }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  keep(res);
  const body = (await res.json()) as { access: string };
  return { cookie: cookie(), access: body.access };
}
