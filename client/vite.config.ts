/**
 * The browser client's build (`npm run build:client`, run by `npm install`) and development server
 * (`npm run client`). The development server proxies everything that belongs to the game server
 * (REST, manifests, Colyseus matchmaking and room sockets, `/ws`) to it, so the page talks to one
 * origin in development as in production, where the game server serves `client/dist` itself.
 */
import path from "node:path";
import { defineConfig } from "vite";
import { buildInputs } from "./buildInputs.ts";

const server = process.env.GAME_SERVER_URL ?? `http://localhost:${process.env.PORT ?? "5555"}`;
const http = { target: server, changeOrigin: true };
const socket = { target: server, changeOrigin: true, ws: true };

export default defineConfig({
  root: import.meta.dirname,
  // Records what the build was made from (see buildInputs.ts): `npm start` builds again after a change.
  plugins: [buildInputs([import.meta.filename, path.join(import.meta.dirname, "index.html")])],
  // Shared server modules import Node's crypto in code the client never runs (see the shim).
  resolve: { alias: { "node:crypto": path.join(import.meta.dirname, "src", "shims", "node-crypto.ts") } },
  // The shared code lives in ../src: allow the dev server to serve it.
  server: {
    port: Number(process.env.VITE_PORT ?? 3333),
    strictPort: true,
    fs: { allow: [".."] },
    proxy: {
      "/api": http,
      "/manifests": http,
      "/env.js": http,
      "/health": http,
      "/matchmake": http,
      "/ws": socket,
      // Colyseus room connections: `/<processId>/<roomId>?sessionId=…` (no dot, unlike the
      // dev server's own module paths).
      "^/[A-Za-z0-9_-]+/[A-Za-z0-9_-]+(\\?.*)?$": socket,
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Phaser alone is ~1.2 MB minified (~340 kB gzipped): one chunk is expected.
    chunkSizeWarningLimit: 2000,
  },
});
