/**
 * Bots' characters for the benches that play the game: one account and character per bot, made by
 * the project's own character creation (starter kit and all), then placed at the bot's tile; one
 * service token each. Apart from bench/world-load/common.ts, which the bots' processes load, so
 * that they do not load the ORM.
 */
import { Character } from "../entities/index.ts";
import { TokenService } from "../src/auth/tokens.ts";
import type { Database } from "../src/db/orm.ts";
import type { Tile } from "../src/game/map/CollisionMap.ts";
import type { ContentRegistry } from "../src/manifests/registry.ts";
import { createCharacter } from "../src/persistence/players.ts";
import { pool } from "./world-load/common.ts";

/** Seeds a character `Bot<i>` on account `<prefix>-<i>` at `places[i]`; returns the tokens in bot order. */
export async function seedBotCharacters(
  db: Database,
  content: ContentRegistry,
  places: readonly Tile[],
  opts: { prefix: string; jwtSecret: string; concurrency: number },
): Promise<string[]> {
  const tokens = new TokenService({ jwtSecret: opts.jwtSecret, idp: { appId: undefined, appSecret: undefined } });
  const ids = await pool(places, opts.concurrency, async (_, i) => (await createCharacter(db, content, `${opts.prefix}-${i}`, `Bot${i}`)).characterId);
  await db.em().transactional(async (em) => {
    for (let i = 0; i < ids.length; i++) await em.nativeUpdate(Character, { id: ids[i]! }, { positionX: places[i]!.x, positionZ: places[i]!.z });
  });
  return pool(places, opts.concurrency, (_, i) => tokens.signServiceToken({ accountId: `${opts.prefix}-${i}` }, 24 * 3600));
}
