/**
 * The hiscores over REST:
 * - `GET /api/v1/hiscores?skill=overall|<skill>&limit=1..100&offset=` (no token): a page of a
 *   table, `{success, skill, total, entries: [{rank, name, level, xp}]}`
 * - `GET /api/characters/:characterId/hiscores` (a token, as the other character routes): the
 *   character's rank, level and xp in every table
 * - `GET /api/v1/hiscores/player/:name` (no token): the same for any character, found by its name
 *   as players read it (src/game/names.ts: case and spacing aside); 404 NOT_FOUND for none
 * Both read the database (src/persistence/hiscores.ts), so every process of a cluster answers
 * alike; a process keeps each answer {@link HISCORES_CACHE_MS} (the tables change at saves, every
 * few seconds anyway). Bad query parameters: 400 INVALID_PAYLOAD naming the parameter.
 */
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { accessCharacter } from "../characterAccess.ts";
import type { Database } from "../../db/orm.ts";
import { HISCORE_SKILLS } from "../../../entities/hiscoreSql.ts";
import { characterRanks, hiscoreEntries, rankedCount } from "../../persistence/hiscores.ts";
import type { WorldService } from "../../sessions/WorldService.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import { findCharacterByName } from "../../persistence/players.ts";
import { ok } from "../schemas.ts";
import { principal } from "./api.ts";

export const HISCORES_PAGE_MAX = 100;
/** How long a process keeps an answer. */
export const HISCORES_CACHE_MS = 5_000;
/** At most this many answers kept (pages and characters); the oldest go first. */
const CACHE_ENTRIES = 1_000;

/** `GET /api/v1/hiscores`'s query. */
export const HISCORES_QUERY = z.strictObject({
  skill: z
    .enum(HISCORE_SKILLS as [string, ...string[]])
    .default("overall")
    .describe("`overall` (total level, then total xp) or a skill (its xp)"),
  limit: z.coerce.number().int().min(1).max(HISCORES_PAGE_MAX).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

const skill = z.enum(HISCORE_SKILLS as [string, ...string[]]);
const level = z.int().min(1).describe("the skill's level; overall: the total level");
const xp = z.int().min(0).describe("whole xp; overall: the total");
export const HISCORES_RESPONSES = {
  page: ok({
    skill,
    total: z.int().min(0).describe("how many characters the table ranks"),
    entries: z.array(z.strictObject({ rank: z.int().min(1), name: z.string(), level, xp })),
  }),
  character: ok({
    characterId: z.string(),
    name: z.string(),
    ranks: z.array(z.strictObject({ skill, rank: z.int().min(1), level, xp })).describe("overall first, then every skill; as of the character's last save"),
  }),
  player: ok({
    name: z.string().describe("the character's name as it is spelt"),
    ranks: z.array(z.strictObject({ skill, rank: z.int().min(1), level, xp })).describe("overall first, then every skill; as of the character's last save"),
  }),
};

/** `GET /api/v1/hiscores/player/:name`'s name: a character name's length at most (entities/Character.ts). */
export const HISCORES_PLAYER_NAME = z.string().min(1).max(32);

/** Answers by key for {@link HISCORES_CACHE_MS}; concurrent askers of one key share one query. */
export class AnswerCache {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(ttlMs = HISCORES_CACHE_MS, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.now = now;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    this.entries.delete(key);
    if (this.entries.size >= CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    this.entries.set(key, { at: now, value });
    // A failure is not kept: the next asker tries again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

export interface HiscoresDeps {
  db: Database;
  world: WorldService;
  auth: RequestHandler;
}

export function hiscoresRoutes({ db, world, auth }: HiscoresDeps, cache = new AnswerCache()): Router {
  const router = Router();

  router.get("/api/v1/hiscores", async (req, res) => {
    const q = HISCORES_QUERY.safeParse(req.query);
    if (!q.success) throw new BadRequestError(`${q.error.issues[0]!.path.join(".") || "query"}: ${q.error.issues[0]!.message}`, "INVALID_PAYLOAD");
    const { skill: table, limit, offset } = q.data;
    // The count is every table's: one query for all of them.
    const [total, entries] = await Promise.all([
      cache.get("total", () => rankedCount(db.statements)),
      cache.get(`page:${table}:${limit}:${offset}`, () => hiscoreEntries(db.statements, table as (typeof HISCORE_SKILLS)[number], limit, offset)),
    ]);
    res.json({ success: true, skill: table, total, entries });
  });

  // Any player's ranks by name, public as the tables are (a name, never a character id).
  router.get("/api/v1/hiscores/player/:name", async (req, res) => {
    const name = HISCORES_PLAYER_NAME.safeParse(String(req.params.name));
    if (!name.success) throw new BadRequestError(`name: ${name.error.issues[0]!.message}`, "INVALID_PAYLOAD");
    const row = await findCharacterByName(db, name.data);
    const found = row === null ? undefined : await cache.get(`character:${row.id}`, () => characterRanks(db.statements, row.id));
    if (found === undefined) throw new NotFoundError(`no player named ${name.data}`);
    res.json({ success: true, name: found.name, ranks: found.ranks });
  });

  router.get("/api/characters/:characterId/hiscores", auth, async (req, res) => {
    const id = String(req.params.characterId);
    await accessCharacter(db, world, principal(req), id);
    const mine = await cache.get(`character:${id}`, () => characterRanks(db.statements, id));
    if (mine === undefined) throw new NotFoundError(`no character ${id}`);
    res.json({ success: true, characterId: id, name: mine.name, ranks: mine.ranks });
  });

  return router;
}
