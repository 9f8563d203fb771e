/**
 * `node:crypto` for the browser. The client imports buildCollision from src/game/world/World.ts,
 * whose module graph reaches src/game/trade/Trades.ts and its `randomUUID` import; the production
 * build drops that code (unused), but Vite's development server evaluates every module and would
 * fail on Node's module. The client itself never calls it.
 */
export const randomUUID = (): string => globalThis.crypto.randomUUID();
