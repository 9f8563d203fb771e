/**
 * `/api/auth/*`. Every request here counts as an authentication attempt (10/min per address).
 *
 * `POST /api/auth/anonymous`: in anonymous mode (no identity provider configured), issues a
 * temporary identity and its service token; with an identity provider configured, 403.
 */
import { Router } from "express";
import { z } from "zod";
import type { Authenticator } from "../../auth/Authenticator.ts";
import type { Config } from "../../config/env.ts";
import { ForbiddenError } from "../errors.ts";
import { ok } from "../schemas.ts";

/** `POST /api/auth/anonymous` (201): the new identity's account and its token, valid `expiresIn` seconds. */
export const ANONYMOUS_RESPONSE = ok({ accountId: z.string().startsWith("anon-"), token: z.string().min(1), expiresIn: z.int().min(1) });

export function authRoutes(config: Config, auth: Authenticator): Router {
  const router = Router();
  router.post("/api/auth/anonymous", async (_req, res) => {
    if (!config.anonymousMode) {
      throw new ForbiddenError("anonymous identities are disabled: sign in with the identity provider", "ANONYMOUS_DISABLED");
    }
    const { principal, token, expiresIn } = await auth.issueAnonymous();
    res.status(201).json({ success: true, accountId: principal.accountId, token, expiresIn });
  });
  return router;
}
