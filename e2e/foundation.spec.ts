import { generate } from 'otplib';
import { apiSession, expect, signInThroughForm, submitSignInForm, test } from './fixtures.ts';

test.describe('sign-in', () => {
  test('with username, password and captcha, landing on home with the profile button', async ({ page }) => {
    await signInThroughForm(page, 'customer');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('profile-name')).toHaveText(/\w+ \w+/);
    await expect(page.getByTestId('profile-role')).toHaveText('Customer User');
  });

  test('returns to the page asked for after signing in', async ({ page }) => {
    await page.goto('/myprofile');
    await expect(page).toHaveURL(/\/auth\/login\/\?next=%2Fmyprofile/);
    await submitSignInForm(page, 'infraadmin');
    await expect(page).toHaveURL(/\/myprofile$/);
    await expect(page.getByTestId('my-profile-page')).toBeVisible();
  });

  test('shows the spec message for a wrong captcha', async ({ page }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 400' });
    await page.goto('/auth/login/');
    await submitSignInForm(page, 'customer', 'WRONG');
    await expect(page.getByText('Invalid Captcha')).toBeVisible();
  });

  test('with a mobile number and a one-time code', async ({ page, baseURL }) => {
    await page.goto('/auth/login/');
    await page.getByTestId('tab-otp').click();
    await page.getByLabel('Mobile number').fill('9000000005');
    await page.getByTestId('otp-send').click();
    await expect(page.getByText('OTP sent successfully to your mobile number')).toBeVisible();
    const admin = await apiSession(baseURL as string, 'sysadmin');
    const outbox = await (await admin.get('/api/auth/outbox/')).json();
    await admin.dispose();
    const code = /(\d{6})/.exec(outbox.contents.find((m: { to: string }) => m.to === '9000000005').body)?.[1] as string;
    await page.getByLabel('One-time code').fill(code);
    await page.getByTestId('otp-verify').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('profile-role')).toHaveText('Vendor');
  });

  test('asks for the authenticator code when two-factor is on', async ({ page, baseURL }) => {
    const user = await apiSession(baseURL as string, 'citylead');
    const { secret } = await (await user.post('/api/auth/totp/setup/')).json();
    expect((await user.post('/api/auth/totp/enable/', { code: await generate({ secret }) })).ok()).toBe(true);
    await user.dispose();
    await page.goto('/auth/login/');
    await submitSignInForm(page, 'citylead');
    const codeField = page.getByRole('textbox', { name: /code/i });
    await expect(codeField).toBeVisible();
    await codeField.fill(await generate({ secret }));
    await page.getByRole('button', { name: /verify|sign in|continue/i }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('profile-role')).toHaveText('City Lead');
  });

  test('refuses a role the user does not hold at /{role}/login', async ({ page }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 403' });
    await page.goto('/vendor/login/');
    await submitSignInForm(page, 'storemanager');
    await expect(page.getByText('Unauthorized')).toBeVisible();
  });
});

test.describe('app shell', () => {
  test('profile menu offers the spec entries and the About dialog', async ({ page }) => {
    await signInThroughForm(page, 'customeradmin');
    await page.getByTestId('profile-button').click();
    for (const id of ['menu-change-password', 'menu-my-profile', 'menu-settings', 'menu-theme', 'menu-about', 'menu-logout']) {
      await expect(page.getByTestId(id)).toBeVisible();
    }
    await page.getByTestId('menu-about').click();
    const about = page.getByTestId('about-dialog');
    await expect(about).toContainText('IOT Framework');
    await expect(about).toContainText('4.2.1');
    await expect(about).toContainText('Analytics Framework');
    // the ffmpeg the server records with, and where it came from (the system's or the npm registry's build)
    await expect(about.getByTestId('about-ffmpeg')).toContainText(/\((system|bundled|configured)\)/);
  });

  test('menus animate, and open at once for a person who asked their system for reduced motion', async ({ page }) => {
    const menuTransition = async () => {
      await page.getByTestId('profile-button').click();
      await expect(page.getByTestId('menu-about')).toBeVisible();
      // The keyboard is in the menu: its first entry has the focus, and Escape closes it.
      await expect(page.getByTestId('menu-change-password')).toBeFocused();
      const transition = await page.locator('.MuiPopover-paper').evaluate((paper) => (paper as HTMLElement).style.transition);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('menu-about')).toHaveCount(0);
      return transition;
    };
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await signInThroughForm(page, 'customeradmin');
    expect(await menuTransition()).toMatch(/opacity \d+ms/);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await menuTransition()).not.toMatch(/\d+ms/);
  });

  test('a customer user has no Settings entry and is refused the settings page', async ({ page }) => {
    await signInThroughForm(page, 'fieldexecutive');
    await page.getByTestId('profile-button').click();
    await expect(page.getByTestId('menu-my-profile')).toBeVisible();
    await expect(page.getByTestId('menu-settings')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/settings');
    await expect(page.getByText('Access denied')).toBeVisible();
    await expect(page.getByText('Only customer administrators can change the settings.')).toBeVisible();
    await page.goto('/app-admin');
    await expect(page.getByTestId('access-denied-page')).toBeVisible();
  });

  test('keeps the chosen theme across a reload', async ({ page }) => {
    await signInThroughForm(page, 'localadmin');
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByTestId('profile-button').click();
    await page.getByTestId('menu-theme').click();
    const after = before === 'dark' ? 'light' : 'dark';
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
    expect(await page.evaluate(() => localStorage.getItem('config-theme'))).toContain(after);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
  });

  test('shows system alerts, closes them, and keeps the cookie consent once accepted', async ({ page, baseURL }) => {
    const admin = await apiSession(baseURL as string, 'customeradmin');
    await admin.post('/notification/system-alerts/', { message: 'Fuel delivery delayed at all northern sites' });
    await admin.dispose();
    await signInThroughForm(page, 'areahead');
    const banner = page.getByTestId('system-alerts');
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('system-alert-message')).not.toBeEmpty();
    await page.getByTestId('system-alerts-close').click();
    await expect(banner).toBeHidden();
    await expect(page.getByTestId('cookie-consent')).toBeVisible();
    await page.getByTestId('cookie-consent-accept').click();
    await expect(page.getByTestId('cookie-consent')).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('profile-button')).toBeVisible();
    await expect(page.getByTestId('cookie-consent')).toHaveCount(0);
  });

  test('shows the footer with the current year', async ({ page }) => {
    await signInThroughForm(page, 'regionalhead');
    await expect(page.getByTestId('copyright')).toContainText(String(new Date().getFullYear()));
    await expect(page.getByTestId('powered-by')).toBeVisible();
  });

  test('logs out, keeps the theme and protects the pages again', async ({ page }) => {
    // The home page's calls may still be under way when the session ends on the server; those are refused, and so is
    // the live socket's handshake when it is under way then (the browser logs that refusal as "HTTP Authentication failed").
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 401|HTTP Authentication failed' });
    await signInThroughForm(page, 'storemanager', { role: 'storemanager' });
    await page.evaluate(() => localStorage.setItem('cookie-consent', 'true'));
    await page.getByTestId('profile-button').click();
    await page.getByTestId('menu-logout').click();
    await expect(page).toHaveURL(/\/storemanager\/login\/?$/);
    expect(await page.evaluate(() => localStorage.getItem('cookie-consent'))).toBe('true');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => /user|access|refresh/.test(k)))).toEqual([]);
    await page.goto('/myprofile');
    await expect(page).toHaveURL(/\/login\/\?next=/);
  });
});

test.describe('error pages', () => {
  test('an unknown route shows the 404 page', async ({ page }) => {
    await signInThroughForm(page, 'sysadmin');
    await page.goto('/no-such-screen/anywhere');
    await expect(page.getByTestId('not-found-page')).toBeVisible();
    await expect(page.getByText('Page not found')).toBeVisible();
  });

  test('an unknown tenant host shows the tenant-not-found page', async ({ page, baseURL }) => {
    test.info().annotations.push({ type: 'allow-console-errors', description: 'status of 421' });
    const url = new URL(baseURL as string);
    url.hostname = 'nobody.localhost';
    await page.goto(`${url.origin}/`);
    await expect(page).toHaveURL(/\/tenant-not-found/);
    await expect(page.getByTestId('tenant-not-found-page')).toBeVisible();
  });

  test('the second demo tenant is reachable on its own host', async ({ page, baseURL }) => {
    const url = new URL(baseURL as string);
    url.hostname = 'acme.localhost';
    await page.goto(`${url.origin}/auth/login/`);
    await expect(page.getByTestId('login-subtitle')).toHaveText('Acme Retail');
  });
});
