/**
 * Express guards: `requireAuth` (401 without a valid bearer token) and `requireAdmin`
 * (the admin role, or HTTP basic auth whose password is `ADMIN_CODE`).
 */
import type { Request, RequestHandler } from "express";
import { ForbiddenError, HttpError, UnauthorizedError } from "./errors.ts";
import type { Authenticator } from "../auth/Authenticator.ts";
import { safeEqual } from "../auth/adminCode.ts";
import { BannedError } from "../moderation/ModerationService.ts";
import { AuthUnavailable, bearerToken, TokenError, type Principal } from "../auth/tokens.ts";

declare module "express-serve-static-core" {
  interface Request {
    principal?: Principal;
  }
}

async function principalOf(req: Request, auth: Authenticator): Promise<Principal | undefined> {
  const token = bearerToken(req.get("authorization"));
  if (token === undefined) return undefined;
  let principal: Principal;
  try {
    principal = await auth.authenticate(token);
  } catch (err) {
    if (err instanceof TokenError) throw new UnauthorizedError(err.message);
    if (err instanceof AuthUnavailable) throw new HttpError(503, "AUTH_UNAVAILABLE", err.message);
    throw err;
  }
  // A banned account's tokens open nothing (403 BANNED, with the ban's end: null when permanent).
  try {
    await auth.admission?.(principal.accountId);
  } catch (err) {
    if (err instanceof BannedError) throw new HttpError(403, "BANNED", err.message, { until: err.until });
    throw err;
  }
  return principal;
}

export function requireAuth(auth: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    const principal = await principalOf(req, auth);
    if (principal === undefined) throw new UnauthorizedError("missing bearer token");
    req.principal = principal;
    next();
  };
}

function basicPassword(header: string | undefined): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/**
 * Whether a browser sent this request on another site's behalf. Browsers replay cached basic-auth
 * credentials on any request to the server, including an `<img>` or a form another site puts in
 * front of a signed-in admin, and the monitor calls room methods from a plain GET. Browsers mark
 * such requests with `Sec-Fetch-Site` (anything but same-origin, or none: typed in or bookmarked)
 * and, on everything but plain GETs, with an `Origin` other than the server's own. Non-browser
 * clients send neither.
 */
export function crossSite(req: Request): boolean {
  const site = req.get("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = req.get("origin");
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.get("host");
  } catch {
    return true; // "null" (sandboxed frames, file pages) or garbage
  }
}

/**
 * Basic credentials on a cross-site request: 403 (CROSS_SITE), before anything else looks at them:
 * the browser attached them, not the page that asked (see crossSite). Placed ahead of the
 * failed-login limit, so another site cannot lock an admin out with requests from their browser.
 * A bearer token is never attached by a browser, so it may come from anywhere.
 */
export const refuseCrossSiteBasic: RequestHandler = (req, _res, next) => {
  if (basicPassword(req.get("authorization")) !== undefined && crossSite(req)) {
    throw new ForbiddenError(
      "basic-auth credentials are not accepted on a cross-site request; open the page on this server, or use a bearer token",
      "CROSS_SITE",
    );
  }
  next();
};

export const ADMIN_REALM = 'Basic realm="rs-world-server admin", charset="UTF-8"';

/**
 * Admin gate for the monitor and admin routes: HTTP basic auth with `ADMIN_CODE` as the password
 * (any user name), or a bearer token with the admin role. No credentials: 401 with a basic-auth
 * challenge; a valid non-admin token: 403. Mounted behind refuseCrossSiteBasic.
 */
export function requireAdmin(auth: Authenticator, adminCode: string): RequestHandler {
  return async (req, res, next) => {
    const password = basicPassword(req.get("authorization"));
    if (password !== undefined) {
      if (safeEqual(password, adminCode)) return next();
      res.setHeader("WWW-Authenticate", ADMIN_REALM);
      throw new UnauthorizedError("wrong admin code");
    }
    const principal = await principalOf(req, auth);
    if (principal === undefined) {
      res.setHeader("WWW-Authenticate", ADMIN_REALM);
      throw new UnauthorizedError("admin authentication required");
    }
    if (principal.role !== "admin") throw new ForbiddenError("admin role required");
    req.principal = principal;
    next();
  };
}
