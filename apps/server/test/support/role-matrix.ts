// Who may call what, as a table: each role's status for a call, compared in one assertion so
// that a failure shows the whole matrix (the route tests of access reviews and their likes).

/** Each role's status code for `call`, called once per role in the order given. */
export async function statusesOf<Role extends string>(
  roles: readonly Role[],
  call: (role: Role) => Promise<{ statusCode: number }>,
): Promise<Record<Role, number>> {
  const got = {} as Record<Role, number>;
  for (const role of roles) got[role] = (await call(role)).statusCode;
  return got;
}

/**
 * The matrix in which every role is refused (403, and 401 for `anonymous`, who is not signed in)
 * but those named, with their status.
 */
export function refusedBut<Role extends string>(
  roles: readonly Role[],
  answered: Partial<Record<Role, number>>,
): Record<Role, number> {
  const matrix = {} as Record<Role, number>;
  for (const role of roles) matrix[role] = answered[role] ?? (role === 'anonymous' ? 401 : 403);
  return matrix;
}
