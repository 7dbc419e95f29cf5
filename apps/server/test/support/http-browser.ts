// A browser over real HTTP for tests and benchmarks that run the server as a process: one cookie
// jar for the portal's origin, whichever instance answers, and the built-in IdP's sign-in steps.
import { csrfOf, inputValue, secretOf, totpCode } from './idp-kit';

export class Browser {
  readonly jar = new Map<string, string>();

  get cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = this.cookieHeader;
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (pair.slice(at + 1)) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
      else this.jar.delete(pair.slice(0, at));
    }
    return res;
  }

  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/**
 * Signs in through the built-in IdP (password, then MFA enrolment) and posts the response to the
 * ACS. Step n goes to instances[n % instances.length], so two instances alternate. Returns the
 * ACS's answer; throws naming the step that went wrong.
 */
export async function signInThroughBuiltinIdp(
  browser: Browser,
  instances: string[],
  credentials: { username: string; password: string },
): Promise<Response> {
  let step = 0;
  const next = (path: string) => `${instances[step++ % instances.length] ?? ''}${path}`;
  const expectStatus = async (name: string, res: Response, status: number) => {
    if (res.status !== status) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    return res;
  };
  const login = await expectStatus(
    'login',
    await browser.fetch(next('/api/saml/login/standard?next=%2Fwelcome')),
    302,
  );
  const sso = new URL(login.headers.get('location') ?? '');
  await expectStatus('sso', await browser.fetch(next(`${sso.pathname}${sso.search}`)), 303);
  const loginPage = await (await browser.fetch(next('/idp/login'))).text();
  await expectStatus(
    'password',
    await browser.postForm(next('/idp/login'), { csrfToken: csrfOf(loginPage), ...credentials }),
    303,
  );
  const mfaPage = await (await browser.fetch(next('/idp/mfa'))).text();
  const enrolled = await expectStatus(
    'mfa',
    await browser.postForm(next('/idp/mfa'), {
      csrfToken: csrfOf(mfaPage),
      passcode: await totpCode(secretOf(mfaPage)),
      nickname: 'Phone',
    }),
    200,
  );
  const postPage = await enrolled.text();
  return browser.postForm(next('/api/saml/acs'), {
    SAMLResponse: inputValue(postPage, 'SAMLResponse') ?? '',
    RelayState: inputValue(postPage, 'RelayState') ?? '',
  });
}
