/**
 * Loading and saving players. Saves are batched: many players per call, in short transactions of
 * at most {@link SAVE_CHUNK} players and rows, each writing those players' changed inventory,
 * equipment and bank rows (or replacing them wholesale), so a save is all-or-nothing per chunk and
 * never half-writes a player. The statements are in playerRows.ts.
 *
 * Every save checks the character's `version`: the row is written only if its version is the one
 * this process last read or wrote (`UPDATE … WHERE id = ? AND version = ?`, which also takes the
 * row lock for the rest of the transaction), and advances it. A save that finds another version
 * (another process wrote the character) is refused and writes nothing of that player.
 */
import { randomInt, randomUUID } from "node:crypto";
import { raw, UniqueConstraintViolationException } from "@mikro-orm/core";
import { AgentMapping, BankSlot, Character, CharacterQuest, EquipmentSlot, InventorySlot, NpcKill, PlayerDeath, PlayerSession } from "../../entities/index.ts";
import type { ICharacter } from "../../entities/Character.ts";
import type { Database, Dialect } from "../db/orm.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import { parseCombatStyle } from "../game/combatStyles.ts";
import { parsePrayerPoints } from "../game/prayer.ts";
import { combatLevel, SKILLS, type Skill } from "../game/skills.ts";
import { nameKey } from "../game/names.ts";
import { INVENTORY_SIZE, type ItemStack, type PlayerData, type SkillState } from "../game/world/Player.ts";
import { CodedError } from "../codedError.ts";
import { dateOf, runStatement, selectRow, selectRows, type Statements } from "../db/rawSql.ts";
import { applyGroundOps } from "./ground.ts";
import { loadQuests, writeQuests } from "./quests.ts";
import { advanceImage, CHARACTER_COLUMNS, chunkStatements, q, rowChanges, rowCount, type RowChanges, type StoredImage } from "./playerRows.ts";

/**
 * For updates of bookkeeping columns (last login, name): MikroORM bumps `version` on every update
 * that does not set it, which would make the live process's next save of the character look stale.
 */
const KEEP_VERSION = { version: raw("version") } as const;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _-]{1,14}[A-Za-z0-9]$/;

export class PlayerLoadError extends CodedError<"FORBIDDEN" | "NOT_FOUND" | "INVALID_NAME" | "NAME_TAKEN"> {}

/**
 * A name refused because a character has it, or one that reads the same (`nameKey`, unique in the
 * database: game/names.ts). The message does not say which: that would tell who exists.
 */
const nameTaken = () => new PlayerLoadError("NAME_TAKEN", "That name is taken (or reads the same as one that is)");

type CharacterRow = ICharacter;

/** The columns of a character that {@link loadData} reads (an entity, or a row of {@link CHARACTER_SELECT}). */
export type CharacterFields = Pick<
  ICharacter,
  | "id"
  | "accountId"
  | "name"
  | "positionX"
  | "positionY"
  | "positionZ"
  | "health"
  | "coins"
  | "combatLevel"
  | "combatStyle"
  | "autocast"
  | "consumableUses"
  | "runEnergy"
  | "runMode"
  | "autoRetaliate"
  | "prayerPoints"
  | "version"
  | "renamedFrom"
>;

/** A character's row, raw (src/db/rawSql.ts): only what a load reads. */
const CHARACTER_SELECT = `select "id", "accountId", "name", "version", "renamedFrom", ${CHARACTER_COLUMNS.map(q).join(", ")} from "characters"`;

function skillsOf(row: CharacterFields): Record<Skill, SkillState> {
  const out = {} as Record<Skill, SkillState>;
  const r = row as unknown as Record<string, number>;
  for (const s of SKILLS) out[s] = { level: Number(r[`${s}Level`]), xpTenths: Number(r[`${s}XpTenths`]) };
  return out;
}

/**
 * The makes left of the consumables begun, from the column's JSON (`{"thread":3}`): whole counts
 * above 0 only, anything else read as none begun (a hand-edited row costs a spool, never a crash).
 */
export function consumableUsesOf(column: string | null | undefined): { consumableUses?: Record<string, number> } {
  if (column == null || column === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(column);
  } catch {
    return {};
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return {};
  const uses = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1]) && (e[1] as number) > 0));
  return Object.keys(uses).length > 0 ? { consumableUses: uses } : {};
}

/**
 * A loaded player, with the row version its saves must find (see savePlayers) and, when the name
 * key migration renamed it and its player has not been told yet, its old name.
 */
export type StoredPlayer = PlayerData & { version: number; renamedFrom?: string | undefined };

/** The character's item rows, read raw (a login's reads: src/db/rawSql.ts), into its data. */
export async function loadData(em: Statements, row: CharacterFields): Promise<StoredPlayer> {
  const id = [row.id];
  // At once: three round trips in parallel on PostgreSQL (SQLite runs them in turn anyway).
  const [inv, equip, bank, quests] = await Promise.all([
    selectRows<{ slot: number; itemId: string; quantity: number }>(em, `select "slot", "itemId", "quantity" from "inventory" where "characterId" = ?`, id),
    selectRows<{ slotType: string; itemId: string; quantity: number }>(
      em,
      `select "slotType", "itemId", "quantity" from "equipment" where "characterId" = ?`,
      id,
    ),
    selectRows<{ itemId: string; quantity: number }>(em, `select "itemId", "quantity" from "bank" where "characterId" = ? order by "slot" asc`, id),
    loadQuests(em, row.id),
  ]);
  const inventory: (ItemStack | null)[] = Array.from({ length: INVENTORY_SIZE }, () => null);
  for (const s of inv) inventory[Number(s.slot)] = { itemId: s.itemId, quantity: Number(s.quantity) };
  const skills = skillsOf(row);
  return {
    characterId: row.id,
    accountId: row.accountId,
    name: row.name,
    x: Number(row.positionX),
    y: Number(row.positionY),
    z: Number(row.positionZ),
    health: Number(row.health),
    coins: Number(row.coins),
    combatLevel: Number(row.combatLevel),
    combatStyle: parseCombatStyle(row.combatStyle),
    autocast: row.autocast ?? null,
    ...consumableUsesOf(row.consumableUses),
    runEnergy: Number(row.runEnergy),
    runMode: Number(row.runMode) === 1,
    autoRetaliate: Number(row.autoRetaliate) !== 0,
    prayerPoints: parsePrayerPoints(row.prayerPoints, skills.prayer.level),
    skills,
    inventory,
    equipment: Object.fromEntries(equip.map((e) => [e.slotType, { itemId: e.itemId, quantity: Number(e.quantity) }])),
    bank: bank.map((b) => ({ itemId: b.itemId, quantity: Number(b.quantity) })),
    ...(Object.keys(quests).length > 0 ? { quests } : {}),
    version: Number(row.version),
    ...(row.renamedFrom ? { renamedFrom: row.renamedFrom } : {}),
  };
}

export interface LoadRequest {
  accountId: string;
  characterId?: string | undefined;
  /** Name for a new character (when the account has none). */
  name?: string | undefined;
  /**
   * Called with the character's id before its rows are read (the character lease): a throw stops
   * the load. A new character is claimed right after it is created.
   */
  claim?: ((characterId: string) => Promise<void>) | undefined;
}

/**
 * The account's character (the one asked for, or its first), created with the content's starter
 * kit at the spawn when the account has none.
 */
export async function loadOrCreatePlayer(db: Database, content: ContentRegistry, req: LoadRequest): Promise<StoredPlayer> {
  const em = db.statements;
  let row: CharacterFields | undefined;
  if (req.characterId !== undefined) {
    row = await selectRow<CharacterFields>(em, `${CHARACTER_SELECT} where "id" = ?`, [req.characterId]);
    if (row === undefined) throw new PlayerLoadError("NOT_FOUND", "no such character");
    if (row.accountId !== req.accountId) throw new PlayerLoadError("FORBIDDEN", "that character belongs to another account");
  } else {
    row = await selectRow<CharacterFields>(em, `${CHARACTER_SELECT} where "accountId" = ? order by "createdAt" asc, "id" asc limit 1`, [req.accountId]);
  }
  if (row === undefined) {
    const created = await createCharacter(db, content, req.accountId, req.name);
    await req.claim?.(created.characterId);
    return created;
  }
  if (req.claim === undefined) return loadData(em, row);
  await req.claim(row.id);
  // Read again under the claim: the row read above may predate another process's last save.
  const current = await selectRow<CharacterFields>(em, `${CHARACTER_SELECT} where "id" = ?`, [row.id]);
  if (current === undefined) throw new PlayerLoadError("NOT_FOUND", "no such character");
  return loadData(em, current);
}

export async function createCharacter(
  db: Database,
  content: ContentRegistry,
  accountId: string,
  requestedName?: string,
  kit: readonly ItemStack[] = content.world.starterKit,
): Promise<StoredPlayer> {
  const chosen = requestedName?.trim();
  if (chosen !== undefined && chosen !== "" && !NAME_PATTERN.test(chosen)) {
    throw new PlayerLoadError("INVALID_NAME", "a name is 3 to 16 letters, digits, spaces, _ or -, starting and ending with a letter or digit");
  }
  const { spawn } = content.world;
  for (let attempt = 0; attempt < 5; attempt++) {
    const name = chosen || `Adventurer${randomInt(1000, 100000)}`;
    const id = randomUUID();
    try {
      await db.em().transactional(async (em) => {
        const character = em.create(Character, { id, accountId, name, positionX: spawn.x, positionY: spawn.y, positionZ: spawn.z });
        character.combatLevel = combatLevel({ attack: 1, strength: 1, defense: 1, constitution: 10, ranged: 1, magic: 1, prayer: 1 });
        let slot = 0;
        for (const stack of kit) {
          const item = content.item(stack.itemId);
          if (stack.itemId === "coins") {
            character.coins += stack.quantity;
            continue;
          }
          // Non-stackable items take one slot each.
          const copies = item?.stackable ? 1 : stack.quantity;
          for (let i = 0; i < copies && slot < INVENTORY_SIZE; i++) {
            em.create(InventorySlot, { characterId: id, slot: slot++, itemId: stack.itemId, quantity: item?.stackable ? stack.quantity : 1 });
          }
        }
      });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) {
        if (chosen) throw nameTaken();
        continue;
      }
      throw err;
    }
    const em = db.statements;
    const row = await selectRow<CharacterFields>(em, `${CHARACTER_SELECT} where "id" = ?`, [id]);
    if (row === undefined) throw new PlayerLoadError("NOT_FOUND", "no such character");
    return loadData(em, row);
  }
  throw new Error("could not find a free name for a new character");
}

/**
 * One save transaction's size at most: players, and rows (characters' and changed item rows)
 * unless one player alone has more. On SQLite a transaction runs on the event loop from its first
 * statement to its commit (better-sqlite3 is synchronous): its size bounds the loop's longest
 * stall (5–10 ms for a full chunk; see bench/README.md, `autosave`). On PostgreSQL the statements
 * are a few per chunk whatever its size, and the loop runs while the server works.
 */
export const SAVE_CHUNK: Readonly<Record<Dialect, { players: number; rows: number }>> = {
  sqlite: { players: 100, rows: 1_000 },
  postgresql: { players: 250, rows: 2_500 },
};

/** Lets the event loop run (timers, sockets, the next tick) between two save transactions. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Saves players in chunked transactions (SAVE_CHUNK), the event loop free between them. `versions`
 * holds each character's row version as this process last read or wrote it: a player whose row
 * has another version (or who has none there) is stale and not written at all; the others'
 * versions are advanced once their chunk has committed. `onStored` is told each chunk once its
 * transaction has committed, with the players it stored and the stale ones it refused: when a
 * later chunk fails, the caller knows which snapshots are in the database (their kill counts
 * added) and must not be written again.
 *
 * `images` (optional) holds what the database has of each character's item rows (see
 * playerRows.ts): with an image of the expected version only the rows that differ are written,
 * without one all of them are replaced; it is updated as chunks commit. The snapshots must not
 * change once handed over.
 */
export async function savePlayers(
  db: Database,
  players: readonly PlayerData[],
  versions: Map<string, number>,
  onStored?: (stored: readonly PlayerData[], stale: readonly PlayerData[]) => void,
  /** The world whose ground the players' drops lie on. */
  world = 1,
  images?: Map<string, StoredImage>,
): Promise<void> {
  for (let i = 0; i < players.length;) {
    // The work of one chunk is planned when it starts: a character saved twice in one call goes
    // into a later chunk, planned from what the earlier one stored.
    await yieldToLoop();
    const plans: { p: PlayerData; expected: number | undefined; changes: RowChanges }[] = [];
    const ids = new Set<string>();
    let rows = 0;
    const limit = SAVE_CHUNK[db.dialect];
    for (; i < players.length && plans.length < limit.players && !ids.has(players[i]!.characterId); i++) {
      const p = players[i]!;
      const expected = versions.get(p.characterId);
      const image = images?.get(p.characterId);
      const changes = rowChanges(p, image !== undefined && image.version === expected ? image : undefined);
      if (plans.length > 0 && rows + rowCount(changes) > limit.rows) break;
      rows += rowCount(changes);
      ids.add(p.characterId);
      plans.push({ p, expected, changes });
    }
    const stale: PlayerData[] = [];
    const chunk: PlayerData[] = [];
    await db.em().transactional(async (em) => {
      stale.length = 0;
      chunk.length = 0;
      const now = new Date();
      const statements = await chunkStatements(em, db.dialect, db.onQuery);
      const known = plans.flatMap(({ p, expected }) => (expected === undefined ? [] : [{ p, expected }]));
      const written = await statements.updateCharacters(known, now);
      for (const { p } of plans) (written.has(p.characterId) ? chunk : stale).push(p);
      if (chunk.length === 0) return;
      await statements.writeItemRows(plans.flatMap(({ p, changes }) => (written.has(p.characterId) ? [changes] : [])));
      await writeQuests(em, chunk);
      await statements.addKills(
        chunk.flatMap((p) => Object.entries(p.kills ?? {}).map(([npcId, n]): [string, string, number] => [p.characterId, npcId, n])),
        now,
      );
      for (const p of chunk) {
        // The items it dropped or took since its last save: with its inventory, in one transaction.
        if (p.ground !== undefined) await applyGroundOps(em, p.ground, world);
        // Death locks: a death already recorded (a retried save) is not recorded again.
        for (const d of p.deaths ?? []) {
          if ((await em.count(PlayerDeath, { id: d.id })) > 0) continue;
          await em.insertMany(PlayerDeath, [
            {
              id: d.id,
              characterId: p.characterId,
              positionX: d.x,
              positionZ: d.z,
              status: "resolved",
              items: d.items,
              killedBy: d.killedBy,
              diedAt: new Date(d.diedAt),
              resolvedAt: now,
            },
          ]);
        }
      }
    });
    const stored = new Set(chunk);
    for (const { p, changes } of plans) {
      const before = versions.get(p.characterId);
      // (A character forgotten while its chunk was being written is not tracked again.)
      if (!stored.has(p) || before === undefined) continue;
      versions.set(p.characterId, before + 1);
      images?.set(p.characterId, advanceImage(images.get(p.characterId), p, changes, before + 1));
    }
    for (const p of stale) images?.delete(p.characterId);
    onStored?.(chunk, stale);
  }
}

/**
 * A login's session row and the character's last login (raw: src/db/rawSql.ts), in one
 * transaction. The character's `version` is left as it is: the live process's saves expect it.
 */
export async function recordLogin(
  db: Database,
  s: { characterId: string; accountId: string; transport: string; remoteAddress?: string | undefined; world?: number },
): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await db.em().transactional(async (em) => {
    await runStatement(em, `update "characters" set "lastLoginAt" = ? where "id" = ?`, [now, s.characterId]);
    await runStatement(
      em,
      `insert into "playerSessions" ("id", "characterId", "accountId", "transport", "world", "remoteAddress", "loginAt") values (?, ?, ?, ?, ?, ?, ?)`,
      [id, s.characterId, s.accountId, s.transport, s.world ?? 1, s.remoteAddress ?? null, now],
    );
  });
  return id;
}

/** The character's latest session: on which world and when it began (the hop cooldown reads it). */
export async function lastSession(db: Database, characterId: string): Promise<{ world: number; loginAt: Date } | undefined> {
  const row = await selectRow<{ world: number; loginAt: unknown }>(
    db.statements,
    `select "world", "loginAt" from "playerSessions" where "characterId" = ? order by "loginAt" desc limit 1`,
    [characterId],
  );
  return row === undefined ? undefined : { world: Number(row.world), loginAt: dateOf(db.statements, row.loginAt)! };
}

export async function recordLogout(db: Database, sessionId: string, reason: string): Promise<void> {
  await db.em().nativeUpdate(PlayerSession, { id: sessionId, logoutAt: null }, { logoutAt: new Date(), logoutReason: reason });
}

export interface CharacterSummary {
  id: string;
  accountId: string;
  name: string;
  combatLevel: number;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export async function listCharacters(db: Database, accountId: string): Promise<CharacterSummary[]> {
  const rows = await db.em().find(Character, { accountId }, { orderBy: { createdAt: "asc", id: "asc" } });
  return rows.map((r) => ({
    id: r.id,
    accountId: r.accountId,
    name: r.name,
    combatLevel: r.combatLevel,
    createdAt: r.createdAt,
    lastLoginAt: r.lastLoginAt ?? null,
  }));
}

export async function findCharacter(db: Database, id: string): Promise<CharacterRow | null> {
  return db.em().findOne(Character, { id });
}

/** The character whose name reads as `name` (any case, any look-alike: game/names.ts); one at most. */
export async function findCharacterByName(db: Database, name: string): Promise<CharacterRow | null> {
  return db.em().findOne(Character, { nameKey: nameKey(name) });
}

/**
 * Deletes a character and every row that is its own (items, kill counts, deaths, and the agents
 * that play it), in one transaction; false when there was no such character. The login history
 * (`player_sessions`) and trade audits stay: they are records about accounts, not game state.
 */
export async function deleteCharacter(db: Database, id: string): Promise<boolean> {
  return db.em().transactional(async (em) => {
    await em.nativeDelete(InventorySlot, { characterId: id });
    await em.nativeDelete(EquipmentSlot, { characterId: id });
    await em.nativeDelete(BankSlot, { characterId: id });
    await em.nativeDelete(NpcKill, { characterId: id });
    await em.nativeDelete(CharacterQuest, { characterId: id });
    await em.nativeDelete(PlayerDeath, { characterId: id });
    await em.nativeDelete(AgentMapping, { characterId: id });
    return (await em.nativeDelete(Character, { id })) > 0;
  });
}

export async function renameCharacter(db: Database, id: string, name: string): Promise<void> {
  if (!NAME_PATTERN.test(name)) {
    throw new PlayerLoadError("INVALID_NAME", "a name is 3 to 16 letters, digits, spaces, _ or -, starting and ending with a letter or digit");
  }
  try {
    // The key's unique index refuses a name that reads as another character's; the character's own
    // key is its own row's, so it may change the case or the look of its own name.
    await db.em().nativeUpdate(Character, { id }, { name, nameKey: nameKey(name), ...KEEP_VERSION });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw nameTaken();
    throw err;
  }
}

/** The player has been told of the rename (see StoredPlayer): the notice is not given again. */
export async function clearRenamedFrom(db: Database, id: string): Promise<void> {
  // Raw: a bookkeeping column, written without the version the live process's saves check.
  await runStatement(db.statements, `update "characters" set "renamedFrom" = null where "id" = ?`, [id]);
}
