/**
 * What production requires of its secrets (env.ts lists these problems with the other variables'):
 * the variables it cannot run without, and how strong `JWT_SECRET` and `ADMIN_CODE` must be. Moved
 * out of env.ts, which re-exports the constants.
 */

/** Variables production cannot run without (spec: "required in production"). */
export const PRODUCTION_REQUIRED = ["DATABASE_URL", "JWT_SECRET", "ADMIN_CODE", "PUBLIC_IDP_APP_ID", "IDP_APP_SECRET"] as const;

/** Production's least `JWT_SECRET`: HS256's key should be as long as its 256-bit hash. */
export const MIN_JWT_SECRET_BYTES = 32;
/** Production's least `ADMIN_CODE`. */
export const MIN_ADMIN_CODE_LENGTH = 12;

/**
 * What production refuses in its secrets, read from the raw environment so that these problems
 * are listed together with invalid values of other variables. A short `JWT_SECRET` can be guessed
 * offline from any token it signed, which would let anyone mint admin tokens; a `JWT_SECRET` equal
 * to `IDP_APP_SECRET` would make every service token a valid identity-provider token and the
 * other way round; a short `ADMIN_CODE` is the monitor's only password.
 */
export function productionSecretProblems(env: Record<string, string | undefined>): string[] {
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const problems: string[] = [];
  const missing = PRODUCTION_REQUIRED.filter((name) => value(name) === undefined);
  if (missing.length > 0) {
    problems.push(`production requires these variables, which are not set: ${missing.join(", ")}`);
  }
  const jwtSecret = value("JWT_SECRET");
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret, "utf8") < MIN_JWT_SECRET_BYTES) {
    problems.push(
      `JWT_SECRET: must be at least ${MIN_JWT_SECRET_BYTES} bytes in production, got ${Buffer.byteLength(jwtSecret, "utf8")} (generate one with: openssl rand -base64 48)`,
    );
  }
  if (jwtSecret !== undefined && jwtSecret === value("IDP_APP_SECRET")) {
    problems.push("JWT_SECRET: must differ from IDP_APP_SECRET (the same secret would make each kind of token pass as the other)");
  }
  const adminCode = value("ADMIN_CODE");
  if (adminCode !== undefined && [...adminCode].length < MIN_ADMIN_CODE_LENGTH) {
    problems.push(`ADMIN_CODE: must be at least ${MIN_ADMIN_CODE_LENGTH} characters in production, got ${[...adminCode].length}`);
  }
  return problems;
}
