import { generateSecret, generateURI, verify } from 'otplib';
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

/** A data: URL of the QR code an authenticator app scans to add the account. */
export function totpQrDataUrl(input: { issuer: string; username: string; secret: string }): Promise<string> {
  const uri = generateURI({ issuer: input.issuer, label: input.username, secret: input.secret });
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 220 });
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
