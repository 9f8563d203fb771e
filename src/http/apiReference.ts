/**
 * `GET /api/reference`: the HTTP API's reference page, `/api/openapi.json` rendered by Swagger UI
 * (`swagger-ui-dist`, a dependency, served from this server: no CDN at run time).
 */
import { createRequire } from "node:module";
import path from "node:path";
import express, { Router } from "express";

export const API_REFERENCE_PATH = "/api/reference";

const require = createRequire(import.meta.url);
const SWAGGER_DIST = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const PAGE_DIR = path.join(import.meta.dirname, "apiReference");
/** The only files of the distribution the page loads. */
const ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png"]);
const CACHE = "public, max-age=3600";

export function apiReferenceRoutes(): Router {
  const router = Router();
  router.get(API_REFERENCE_PATH, (_req, res) => {
    res.set("Cache-Control", "no-cache").sendFile(path.join(PAGE_DIR, "index.html"));
  });
  router.get(`${API_REFERENCE_PATH}/init.js`, (_req, res) => {
    res.set("Cache-Control", "no-cache").type("text/javascript").sendFile(path.join(PAGE_DIR, "init.js"));
  });
  const assets = express.static(SWAGGER_DIST, { index: false, fallthrough: true, setHeaders: (res) => res.setHeader("Cache-Control", CACHE) });
  router.get(`${API_REFERENCE_PATH}/:file`, (req, res, next) => {
    if (!ASSETS.has(req.params.file)) return next();
    req.url = `/${req.params.file}`;
    return assets(req, res, next);
  });
  return router;
}
