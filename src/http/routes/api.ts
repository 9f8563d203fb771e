/**
 * The REST API for players and characters (every route needs a bearer token):
 * - `GET|POST /api/v1/player`, `GET /api/v1/world`
 * - `GET /api/characters/:characterId/skills`, `GET /api/characters/:characterId/position`
 * - `/api/character` (list, create, delete your characters)
 * - `/api/player/online`, `/api/player/by-name/:name` (public player data)
 * - `/api/template`, `/api/template/:templateId` (character templates from the content)
 */
import { Router, type Request, type RequestHandler } from "express";
import { z } from "zod";
import { accessCharacter } from "../characterAccess.ts";
import { isAgentToken } from "../../auth/agentScope.ts";
import type { Principal, Role } from "../../auth/tokens.ts";
import type { Database } from "../../db/orm.ts";
import { SERVER_EVENTS } from "../../game/serverEvents.ts";
import { exactXp, SKILLS, wholeXp } from "../../game/skills.ts";
import type { Player } from "../../game/world/Player.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";
import { characterTemplate } from "../../manifests/schemas/world.ts";
import { createCharacter, findCharacterByName, listCharacters, PlayerLoadError, renameCharacter, type CharacterSummary } from "../../persistence/players.ts";
import type { WorldService } from "../../sessions/WorldService.ts";
import { ownerOnly } from "../agentScope.ts";
import { BadRequestError, HttpError, NotFoundError } from "../errors.ts";
import { isoTime, ok } from "../schemas.ts";

export const MAX_CHARACTERS_PER_ACCOUNT = 5;

/** Validates a request body; a failure is a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new BadRequestError(`${issue.path.join(".") || "body"}: ${issue.message}`, "INVALID_PAYLOAD");
  }
  return r.data;
}

export function principal(req: Request): Principal {
  return req.principal!;
}

function loadErrorToHttp(err: unknown): never {
  if (err instanceof PlayerLoadError) {
    if (err.code === "NAME_TAKEN") throw new HttpError(409, err.code, err.message);
    if (err.code === "INVALID_NAME") throw new BadRequestError(err.message, err.code);
  }
  throw err;
}

const nameSchema = z.string().trim().min(3).max(16);
/** A content id (no template id is longer). */
const templateId = z.string().max(64);

/** The request bodies, as the handlers validate them. */
export const PLAYER_BODIES = {
  /** `POST /api/v1/player`: create the player (both optional) or rename it (`name` only). */
  player: z.strictObject({ name: nameSchema.optional(), templateId: templateId.optional() }),
  /** `POST /api/character`. */
  character: z.strictObject({ name: nameSchema, templateId: templateId.optional() }),
};

const sync = SERVER_EVENTS["player:sync"].schema.shape;
/** Another player as every player may see it. */
const visiblePlayer = z.strictObject({ id: z.string(), name: z.string(), x: z.int(), z: z.int(), combatLevel: z.int() });
/** One of the account's characters; `online`: some connection plays it in this process. */
const characterSummary = z.strictObject({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  combatLevel: z.int(),
  createdAt: isoTime,
  lastLoginAt: isoTime.nullable(),
  online: z.boolean(),
});
/** The current character (null: the account has none yet). */
const currentCharacter = z
  .strictObject({
    characterId: z.string(),
    name: z.string(),
    online: z.boolean(),
    position: sync.position,
    health: sync.health,
    combatLevel: sync.combatLevel,
    coins: sync.coins,
  })
  .nullable();

/** What each route answers on success. */
export const PLAYER_RESPONSES = {
  player: ok({
    account: z.strictObject({ id: z.string(), anonymous: z.boolean(), role: z.enum(["player", "admin"] as const satisfies readonly Role[]) }),
    principal: z
      .enum(["user", "agent"])
      .describe('who the token acts for: `"agent"`, an agent\'s token (its character only; refused on the account\'s routes), or `"user"`, the account\'s own'),
    player: currentCharacter,
    characters: z.array(characterSummary),
  }),
  playerChanged: ok({ player: currentCharacter, characters: z.array(characterSummary) }),
  world: ok({
    tick: z.int().min(0),
    tickMs: z.int().min(1),
    worldTime: isoTime,
    players: z.array(visiblePlayer),
    counts: z.strictObject({ online: z.int().min(0), inWorld: z.int().min(0), areas: z.int().min(0) }),
  }),
  skills: ok({
    skills: z.record(
      z.string(),
      z.strictObject({
        level: z.int().min(1),
        xp: z.int().min(0).describe("whole xp (rounded down)"),
        xpExact: z.number().min(0).describe("the xp as kept, in tenths (17.5)"),
      }),
    ),
  }),
  position: ok({ position: sync.position, online: z.boolean() }),
  characters: ok({ characters: z.array(characterSummary) }),
  characterCreated: ok({ character: z.strictObject({ id: z.string(), name: z.string(), combatLevel: z.int(), online: z.literal(false) }) }),
  deleted: ok({ deleted: z.string() }),
  online: ok({ players: z.array(visiblePlayer) }),
  byName: ok({ player: z.strictObject({ id: z.string(), name: z.string(), combatLevel: z.int(), online: z.boolean() }) }),
  templates: ok({ templates: z.array(characterTemplate) }),
  template: ok({ template: characterTemplate }),
};

export interface ApiDeps {
  db: Database;
  world: WorldService;
  content: ContentRegistry;
  auth: RequestHandler;
  tickMs: number;
}

export function apiRoutes({ db, world, content, auth, tickMs }: ApiDeps): Router {
  const router = Router();
  const publicPlayer = (p: Player) => ({ id: p.id, name: p.data.name, x: p.x, z: p.z, combatLevel: p.data.combatLevel });
  const onlinePlayers = () => [...world.world.players.values()].filter((p) => world.connectionOf(p.id) !== undefined);
  const summary = (c: CharacterSummary) => ({ ...c, online: world.connectionOf(c.id) !== undefined });

  async function currentPlayer(p: Principal) {
    // A token scoped to one character (an agent's) sees that character only, not the account's others.
    const characters = (await listCharacters(db, p.accountId)).filter((c) => p.characterId === undefined || c.id === p.characterId);
    const id = p.characterId ?? characters[0]?.id;
    if (id === undefined) return { characters, player: null };
    const { data, online } = await accessCharacter(db, world, p, id);
    return {
      characters,
      player: {
        characterId: data.characterId,
        name: data.name,
        online,
        position: { x: data.x, y: data.y, z: data.z },
        health: data.health,
        combatLevel: data.combatLevel,
        coins: data.coins,
      },
    };
  }

  router.get("/api/v1/player", auth, async (req, res) => {
    const p = principal(req);
    const { characters, player } = await currentPlayer(p);
    res.json({
      success: true,
      account: { id: p.accountId, anonymous: p.anonymous, role: p.role },
      principal: isAgentToken(p) ? "agent" : "user",
      player,
      characters: characters.map(summary),
    });
  });

  router.post("/api/v1/player", auth, async (req, res) => {
    const p = ownerOnly(req, "create or rename the player");
    const body = parseBody(PLAYER_BODIES.player, req.body);
    // Under the account's lock, so that two first calls (or one and a first login) create one
    // player. `undefined`: this call created it.
    const characters = await world.withAccount(p.accountId, async () => {
      const existing = await listCharacters(db, p.accountId);
      if (existing.length > 0) return existing;
      const template = content.world.templates.find((t) => t.id === (body.templateId ?? "adventurer"));
      if (template === undefined) throw new BadRequestError(`unknown template "${body.templateId}"`, "INVALID_TEMPLATE");
      await createCharacter(db, content, p.accountId, body.name, template.starterKit).catch(loadErrorToHttp);
      return undefined;
    });
    if (characters === undefined) {
      const created = await currentPlayer(p);
      res.status(201).json({ success: true, player: created.player, characters: created.characters.map(summary) });
      return;
    }
    if (body.name === undefined) throw new BadRequestError("nothing to update: give a new name", "INVALID_PAYLOAD");
    if (body.templateId !== undefined) throw new BadRequestError("a template applies only when the player is created", "INVALID_PAYLOAD");
    const id = characters[0]!.id;
    await renameCharacter(db, id, body.name).catch(loadErrorToHttp);
    const name = body.name;
    world.world.enqueueCommand(id, (player) => {
      player.data.name = name;
      player.publicVersion++;
      player.syncDue = true;
    });
    // The live world takes the new name at its next tick; report it now.
    const current = await currentPlayer(p);
    res.json({
      success: true,
      player: current.player && { ...current.player, name },
      characters: current.characters.map((c) => (c.id === id ? { ...summary(c), name } : summary(c))),
    });
  });

  router.get("/api/v1/world", auth, (_req, res) => {
    const online = onlinePlayers();
    res.json({
      success: true,
      tick: world.world.tick,
      tickMs,
      worldTime: new Date().toISOString(),
      players: online.map(publicPlayer),
      counts: { online: online.length, inWorld: world.world.players.size, areas: content.areas.length },
    });
  });

  router.get("/api/characters/:characterId/skills", auth, async (req, res) => {
    const { data } = await accessCharacter(db, world, principal(req), String(req.params.characterId));
    const skills: Record<string, { level: number; xp: number; xpExact: number }> = {};
    for (const s of SKILLS) skills[s] = { level: data.skills[s].level, xp: wholeXp(data.skills[s].xpTenths), xpExact: exactXp(data.skills[s].xpTenths) };
    res.json({ success: true, skills });
  });

  router.get("/api/characters/:characterId/position", auth, async (req, res) => {
    const { data, online } = await accessCharacter(db, world, principal(req), String(req.params.characterId));
    res.json({ success: true, position: { x: data.x, y: data.y, z: data.z }, online });
  });

  router.get("/api/character", auth, async (req, res) => {
    const p = ownerOnly(req, "list the account's characters");
    res.json({ success: true, characters: (await listCharacters(db, p.accountId)).map(summary) });
  });

  router.post("/api/character", auth, async (req, res) => {
    const p = ownerOnly(req, "create characters");
    const body = parseBody(PLAYER_BODIES.character, req.body);
    const template = content.world.templates.find((t) => t.id === (body.templateId ?? "adventurer"));
    if (template === undefined) throw new BadRequestError(`unknown template "${body.templateId}"`, "INVALID_TEMPLATE");
    // Under the account's lock: two creations (or a creation and a first login, which creates a
    // character too) cannot both pass the count check.
    const data = await world.withAccount(p.accountId, async () => {
      const existing = await listCharacters(db, p.accountId);
      if (existing.length >= MAX_CHARACTERS_PER_ACCOUNT) {
        throw new HttpError(409, "TOO_MANY_CHARACTERS", `an account has at most ${MAX_CHARACTERS_PER_ACCOUNT} characters`);
      }
      return createCharacter(db, content, p.accountId, body.name, template.starterKit).catch(loadErrorToHttp);
    });
    res.status(201).json({ success: true, character: { id: data.characterId, name: data.name, combatLevel: data.combatLevel, online: false } });
  });

  router.delete("/api/character/:characterId", auth, async (req, res) => {
    const p = ownerOnly(req, "delete characters");
    const id = String(req.params.characterId);
    await accessCharacter(db, world, p, id, "act");
    const outcome = await world.deleteCharacter(p.accountId, id);
    if (outcome === "online") throw new HttpError(409, "CHARACTER_ONLINE", "log the character out before deleting it");
    if (outcome === "missing") throw new NotFoundError(`no character ${id}`);
    res.json({ success: true, deleted: id });
  });

  router.get("/api/player/online", auth, (_req, res) => {
    res.json({ success: true, players: onlinePlayers().map(publicPlayer) });
  });

  router.get("/api/player/by-name/:name", auth, async (req, res) => {
    const row = await findCharacterByName(db, String(req.params.name));
    if (row === null) throw new NotFoundError(`no player named ${String(req.params.name)}`);
    const live = world.world.players.get(row.id);
    const online = world.connectionOf(row.id) !== undefined;
    res.json({ success: true, player: { id: row.id, name: row.name, combatLevel: live?.data.combatLevel ?? row.combatLevel, online } });
  });

  router.get("/api/template", auth, (_req, res) => {
    res.json({ success: true, templates: content.world.templates });
  });

  router.get("/api/template/:templateId", auth, (req, res) => {
    const t = content.world.templates.find((x) => x.id === req.params.templateId);
    if (t === undefined) throw new NotFoundError(`no template ${String(req.params.templateId)}`);
    res.json({ success: true, template: t });
  });

  return router;
}
