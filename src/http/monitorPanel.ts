/**
 * The monitor's page with one addition: a script that shows a refused room action's reason on
 * screen (monitorPanel/refusals.js). The stock panel only logs its calls' answers to the console.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";

/** The panel's page, beside the package's entry (build/index.mjs; its exports hide package.json). */
const PANEL_INDEX = path.join(path.dirname(fileURLToPath(import.meta.resolve("@colyseus/monitor"))), "static", "index.html");
const REFUSALS_JS = path.join(import.meta.dirname, "monitorPanel", "refusals.js");
export const REFUSALS_SCRIPT = "rsworld-refusals.js";

let page: string | undefined;
function panelPage(): string {
  if (page === undefined) {
    const stock = fs.readFileSync(PANEL_INDEX, "utf8");
    if (!stock.includes("</head>")) throw new Error("@colyseus/monitor: its index.html has no </head> (its page changed)");
    page = stock.replace("</head>", `  <script src="./${REFUSALS_SCRIPT}"></script>\n</head>`);
  }
  return page;
}

/** Serves the panel's page (with the script) and the script; everything else goes on to the monitor. */
export function monitorPanel(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path === "/" || req.path === "/index.html") {
      res.type("html").set("Cache-Control", "no-cache").send(panelPage());
      return;
    }
    if (req.path === `/${REFUSALS_SCRIPT}`) {
      res.type("text/javascript").set("Cache-Control", "no-cache").sendFile(REFUSALS_JS);
      return;
    }
    next();
  };
}
