import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** One step either side of now (30 s) absorbs clock drift and typing time. */
const TOLERANCE_SECONDS = 30;

/** A new random TOTP seed (160 bits, base32) for an authenticator app. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The seed in groups of four characters, easier to read and type by hand. */
export function secretGroups(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [];
}

/** A data: URL of a QR code carrying `text` (an otpauth: URI, the authenticator's pairing link). */
export function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 1, width: 220 });
}

/** A data: URL of the QR code an authenticator app scans to add the account. */
export function totpQrDataUrl(input: { issuer: string; username: string; secret: string }): Promise<string> {
  return qrDataUrl(generateURI({ issuer: input.issuer, label: input.username, secret: input.secret }));
}

/** The step length of every TOTP the portal uses. */
export const TOTP_STEP_SECONDS = 30;

/** The passcode of the current time step, and the seconds until the next (the authenticator page). */
export async function currentTotp(secret: string): Promise<{ passcode: string; secondsLeft: number }> {
  const now = Math.floor(Date.now() / 1000);
  return { passcode: await generate({ secret }), secondsLeft: TOTP_STEP_SECONDS - (now % TOTP_STEP_SECONDS) };
}

/**
 * The time step the code belongs to (current ±1), or null when it matches none. Replay is the
 * caller's check: a step at or before the device's last used step must be refused.
 */
export async function matchTotpStep(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({ secret, token: code, epochTolerance: TOLERANCE_SECONDS });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
