/**
 * Whether an address names this machine only: 127.0.0.0/8, ::1, 127.x mapped into IPv6, or the
 * name localhost. Used for the listen address (HOST) and for a request's TCP peer.
 */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a === 'localhost' || a === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}
