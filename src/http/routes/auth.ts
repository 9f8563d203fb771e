/**
 * `/api/auth/*`. Every request here counts as an authentication attempt (10/min per address).
 *
 * `POST /api/auth/anonymous`: in anonymous mode (no identity provider configured), issues a
 * temporary identity and its service token; with an identity provider configured, 403.
 */
import { Router } from "express";
import type { TokenService } from "../../auth/tokens.ts";
import { ANONYMOUS_TOKEN_TTL_S } from "../../auth/tokens.ts";
import type { Config } from "../../config/env.ts";
import { ForbiddenError } from "../errors.ts";

export function authRoutes(config: Config, tokens: TokenService): Router {
  const router = Router();
  router.post("/anonymous", (_req, res) => {
    if (!config.anonymousMode) {
      throw new ForbiddenError("anonymous identities are disabled: sign in with the identity provider", "ANONYMOUS_DISABLED");
    }
    const { principal, token } = tokens.issueAnonymous();
    res.status(201).json({ success: true, accountId: principal.accountId, token, expiresIn: ANONYMOUS_TOKEN_TTL_S });
  });
  return router;
}
