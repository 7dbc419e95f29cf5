import { securityKeyMessages } from '@pra/contracts/plain-texts';

/** What the browser's WebAuthn answer looks like, as the server's verifier takes it. */
export type BrowserCredential = {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string } & Record<string, unknown>;
} & Record<string, unknown>;

/** The person cancelled the browser's dialog, or it timed out (nothing else to say). */
export class CeremonyCancelled extends Error {
  constructor() {
    super(securityKeyMessages.cancelled);
  }
}

/**
 * Runs navigator.credentials.create or .get through @simplewebauthn/browser, which loads only
 * when someone uses a key (the profile page's bundle stays small). The browser's refusals
 * (cancel, timeout, another origin) become one message the person understands.
 */
export async function runCeremony(
  kind: 'create' | 'get',
  options: Record<string, unknown>,
): Promise<BrowserCredential> {
  const browser = await import('@simplewebauthn/browser');
  if (!browser.browserSupportsWebAuthn()) throw new Error(securityKeyMessages.unsupported);
  try {
    const result =
      kind === 'create'
        ? await browser.startRegistration({ optionsJSON: options as never })
        : await browser.startAuthentication({ optionsJSON: options as never });
    return result as unknown as BrowserCredential;
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
      throw new CeremonyCancelled();
    }
    if (error instanceof Error && error.name === 'InvalidStateError') {
      throw new Error(securityKeyMessages.alreadyRegistered);
    }
    throw error;
  }
}
