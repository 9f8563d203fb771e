/**
 * The statements of a batched save (players.ts `savePlayers`): a few statements per table and
 * chunk instead of a few per player, and only the item rows that changed.
 *
 * What the database holds of a character's item rows is remembered as a {@link StoredImage}, taken
 * from the snapshot a save wrote (or from the data a login read), with the row version it belongs
 * to. A save whose character still has that version writes the slots that differ from the image;
 * any other writer of the character (a trade's swap, another process) advances the version, so
 * the image no longer matches and that save replaces the character's item rows wholesale, as a
 * save without an image does.
 *
 * Statements are raw SQL (MikroORM's query builder cost milliseconds per player): on PostgreSQL
 * one statement per table and kind for a whole chunk, its rows sent as arrays (`update … from
 * unnest(…)`, `insert … select … from unnest(…) on conflict … do update`), on SQLite prepared
 * statements run per row (see SqliteStatements). Identifiers are the entities' column names
 * (entities/: EntityCaseNamingStrategy). bench/README.md (`autosave`) has the measurements.
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import type { QueryKind, QueryObserver } from "../db/queryTiming.ts";
import { DEFAULT_COMBAT_STYLE } from "../game/combatStyles.ts";
import { SKILLS } from "../game/skills.ts";
import { MAX_RUN_ENERGY } from "../game/world/runEnergy.ts";
import { TOTAL_XP_SQL } from "../../entities/hiscoreSql.ts";
import type { ItemStack, PlayerData } from "../game/world/Player.ts";

/** A character's item rows as the database holds them at `version`. */
export interface StoredImage {
  version: number;
  /** By slot (28); null: no row. */
  inventory: (ItemStack | null)[];
  /** By slot type. */
  equipment: Map<string, ItemStack>;
  /** By item id: its display slot and quantity. */
  bank: Map<string, { slot: number; quantity: number }>;
}

/** The image of what a save of `p` writes (or a login read), at `version`: copies, so later changes to `p` do not reach it. */
export function imageOf(p: PlayerData, version: number): StoredImage {
  return {
    version,
    inventory: p.inventory.map((s) => (s === null ? null : { itemId: s.itemId, quantity: s.quantity })),
    equipment: new Map(Object.entries(p.equipment).map(([slot, s]) => [slot, { itemId: s.itemId, quantity: s.quantity }])),
    bank: new Map(p.bank.map((s, slot) => [s.itemId, { slot, quantity: s.quantity }])),
  };
}

const same = (a: ItemStack | null | undefined, b: ItemStack | null | undefined) =>
  (a ?? undefined) === (b ?? undefined) || (a != null && b != null && a.itemId === b.itemId && a.quantity === b.quantity);

/** The item rows one player's save writes. */
export interface RowChanges {
  characterId: string;
  /** No usable image: every item row of the character is deleted, then all of `upserts` inserted. */
  replace: boolean;
  inventory: { upserts: [number, string, number][]; deletes: number[] };
  equipment: { upserts: [string, string, number][]; deletes: string[] };
  bank: { upserts: [string, number, number][]; deletes: string[] };
}

/** What a save of `p` must write, given the image of what is stored (undefined: unknown, replace it all). */
export function rowChanges(p: PlayerData, stored: StoredImage | undefined): RowChanges {
  const out: RowChanges = {
    characterId: p.characterId,
    replace: stored === undefined,
    inventory: { upserts: [], deletes: [] },
    equipment: { upserts: [], deletes: [] },
    bank: { upserts: [], deletes: [] },
  };
  const slots = Math.max(p.inventory.length, stored?.inventory.length ?? 0);
  for (let slot = 0; slot < slots; slot++) {
    const now = p.inventory[slot] ?? null;
    const was = stored === undefined ? null : (stored.inventory[slot] ?? null);
    if (stored !== undefined && same(now, was)) continue;
    if (now !== null) out.inventory.upserts.push([slot, now.itemId, now.quantity]);
    else if (was !== null) out.inventory.deletes.push(slot);
  }
  for (const [slotType, s] of Object.entries(p.equipment)) {
    if (stored === undefined || !same(s, stored.equipment.get(slotType))) out.equipment.upserts.push([slotType, s.itemId, s.quantity]);
  }
  if (stored !== undefined) for (const slotType of stored.equipment.keys()) if (!(slotType in p.equipment)) out.equipment.deletes.push(slotType);
  let kept = 0;
  for (let slot = 0; slot < p.bank.length; slot++) {
    const s = p.bank[slot]!;
    const was = stored?.bank.get(s.itemId);
    if (was !== undefined) kept++;
    if (was === undefined || was.slot !== slot || was.quantity !== s.quantity) out.bank.upserts.push([s.itemId, slot, s.quantity]);
  }
  // Stacks taken out (only looked for when some stored stack is not in the bank any more).
  if (stored !== undefined && kept < stored.bank.size) {
    const inBank = new Set(p.bank.map((s) => s.itemId));
    for (const itemId of stored.bank.keys()) if (!inBank.has(itemId)) out.bank.deletes.push(itemId);
  }
  return out;
}

/** How many rows the changes write (characters row included): what a chunk's size is counted in. */
export function rowCount(c: RowChanges): number {
  return (
    1 +
    c.inventory.upserts.length +
    c.inventory.deletes.length +
    c.equipment.upserts.length +
    c.equipment.deletes.length +
    c.bank.upserts.length +
    c.bank.deletes.length
  );
}

/** The image after a committed save of `p` that wrote `changes`: the old one brought up to date, or a new one after a replace. */
export function advanceImage(image: StoredImage | undefined, p: PlayerData, changes: RowChanges, version: number): StoredImage {
  if (image === undefined || changes.replace) return imageOf(p, version);
  image.version = version;
  for (const [slot, itemId, quantity] of changes.inventory.upserts) image.inventory[slot] = { itemId, quantity };
  for (const slot of changes.inventory.deletes) image.inventory[slot] = null;
  for (const [slotType, itemId, quantity] of changes.equipment.upserts) image.equipment.set(slotType, { itemId, quantity });
  for (const slotType of changes.equipment.deletes) image.equipment.delete(slotType);
  for (const [itemId, slot, quantity] of changes.bank.upserts) image.bank.set(itemId, { slot, quantity });
  for (const itemId of changes.bank.deletes) image.bank.delete(itemId);
  return image;
}

/** The statements of one chunk's transaction. */
export interface ChunkStatements {
  /**
   * Writes the characters' rows of those whose stored version is the expected one, advancing it;
   * returns the ids written (the others are stale).
   */
  updateCharacters(players: readonly { p: PlayerData; expected: number }[], now: Date): Promise<Set<string>>;
  /** Writes the item rows of the changes (of characters whose row was just written). */
  writeItemRows(changes: readonly RowChanges[]): Promise<void>;
  /** Adds kill counts (character, NPC, kills): a new row, or added to the stored count. */
  addKills(kills: readonly [string, string, number][], now: Date): Promise<void>;
}

/** The statements for a transaction of `em` (inside `em.transactional`). */
export async function chunkStatements(em: SqlEntityManager, dialect: "sqlite" | "postgresql", observe?: QueryObserver): Promise<ChunkStatements> {
  return dialect === "sqlite" ? new SqliteStatements(await nativeSqlite(em), observe) : new PostgresStatements(em);
}

const SKILL_COLUMNS = SKILLS.flatMap((s) => [`${s}Level`, `${s}XpTenths`]);
/** A character's columns that a save writes (and a load reads back: players.ts). */
export const CHARACTER_COLUMNS = [
  "positionX",
  "positionY",
  "positionZ",
  "health",
  "coins",
  "combatLevel",
  "combatStyle",
  ...SKILL_COLUMNS,
  "runEnergy",
  "prayerPoints",
  "autocast",
  "consumableUses",
  "runMode",
  "autoRetaliate",
];
/** The character's columns that hold text (the rest are numbers). */
const TEXT_COLUMNS = new Set(["combatStyle", "autocast", "consumableUses"]);
/** An identifier, quoted for both databases. */
export const q = (id: string) => `"${id}"`;

function characterValues(p: PlayerData): unknown[] {
  const out: unknown[] = [p.x, p.y, p.z, p.health, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];
  for (const s of SKILLS) out.push(p.skills[s].level, p.skills[s].xpTenths);
  out.push(Math.round(p.runEnergy ?? MAX_RUN_ENERGY));
  out.push(p.prayerPoints ?? p.skills.prayer.level);
  out.push(p.autocast ?? null);
  out.push(p.consumableUses !== undefined && Object.keys(p.consumableUses).length > 0 ? JSON.stringify(p.consumableUses) : null);
  out.push(p.runMode === true ? 1 : 0);
  out.push(p.autoRetaliate === false ? 0 : 1);
  return out;
}

/** The total xp of a save's row, as stored (entities/hiscoreSql.ts sums the same columns). */
const totalXp = (p: PlayerData) => SKILLS.reduce((sum, s) => sum + p.skills[s].xpTenths, 0);
/** The total xp of the character's stored row, `table`-qualified (an update's old values). */
const storedTotalXp = (table: string) => TOTAL_XP_SQL.replace(/"(\w+XpTenths)"/g, `${q(table)}."$1"`);

/** The item tables: each row's key within its character, and its other columns. */
const ITEM_TABLES = {
  inventory: { key: "slot", columns: ["itemId", "quantity"] },
  equipment: { key: "slotType", columns: ["itemId", "quantity"] },
  bank: { key: "itemId", columns: ["slot", "quantity"] },
} as const;
type ItemTable = keyof typeof ITEM_TABLES;
const ITEM_TABLE_NAMES = Object.keys(ITEM_TABLES) as ItemTable[];

/** The (character, key, columns…) rows to upsert and (character, key) pairs to delete of one table. */
function itemRows(changes: readonly RowChanges[], table: ItemTable): { upserts: unknown[][]; deletes: unknown[][] } {
  const upserts: unknown[][] = [];
  const deletes: unknown[][] = [];
  for (const c of changes) {
    for (const r of c[table].upserts) upserts.push([c.characterId, ...r]);
    for (const k of c[table].deletes) deletes.push([c.characterId, k]);
  }
  return { upserts, deletes };
}

/** An upsert of rows into an item table; `rows` is `values (…)` or a `select`. */
const upsertSql = (table: ItemTable, rows: string) => {
  const { key, columns } = ITEM_TABLES[table];
  return `insert into ${q(table)} ("characterId", ${q(key)}, ${columns.map(q).join(", ")}) ${rows} on conflict ("characterId", ${q(key)}) do update set ${columns.map((c) => `${q(c)} = excluded.${q(c)}`).join(", ")}`;
};
const KILLS_CONFLICT = `on conflict ("characterId", "npcId") do update set "killCount" = "npcKills"."killCount" + excluded."killCount", "lastKillAt" = excluded."lastKillAt"`;

/** A PostgreSQL array literal of numbers (`{1,2.5}`), for an `?::int[]` or `?::float8[]` parameter. */
export function numberArray(values: readonly unknown[]): string {
  for (const v of values) if (typeof v !== "number" || !Number.isFinite(v)) throw new TypeError(`not a finite number: ${String(v)}`);
  return `{${values.join(",")}}`;
}

/** A PostgreSQL array literal of strings (`{"a","b\"c"}`, null as `NULL`), for an `?::varchar[]` parameter. */
export function textArray(values: readonly unknown[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${String(v).replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`;
}

/** The columns of rows as array parameters for `unnest(…)`: `types[i]` is column i's element type. */
function columnArrays(rows: readonly (readonly unknown[])[], types: readonly ("varchar" | "int" | "float8")[]): string[] {
  return types.map((type, i) => {
    const column = rows.map((r) => r[i]);
    return type === "varchar" ? textArray(column) : numberArray(column);
  });
}

const unnest = (types: readonly string[]) => `unnest(${types.map((t) => `?::${t}[]`).join(", ")})`;
/*
 * Element types of the columns sent as arrays. Keys are `int`; values are `float8` even for
 * integer columns, so that PostgreSQL's assignment cast (rounding) applies as it did to the
 * values MikroORM inlined, instead of a whole chunk failing on one stray fraction.
 */
const CHARACTER_TYPES = ["varchar", "int", ...CHARACTER_COLUMNS.map((c) => (TEXT_COLUMNS.has(c) ? "varchar" : "float8"))] as ("varchar" | "int" | "float8")[];
const ITEM_TYPES: Record<ItemTable, ("varchar" | "int" | "float8")[]> = {
  inventory: ["varchar", "int", "varchar", "float8"],
  equipment: ["varchar", "varchar", "varchar", "float8"],
  bank: ["varchar", "varchar", "float8", "float8"],
};

/**
 * PostgreSQL: one statement per table and kind, whatever the number of rows: the rows go as one
 * array parameter per column, `unnest`ed on the server (MikroORM inlines parameters, so a few long
 * array literals cost far less to format than a value per cell). The characters' rows are locked
 * first, in id order (`for update`), so two processes saving overlapping sets of characters take
 * the locks in the same order.
 */
class PostgresStatements implements ChunkStatements {
  private readonly em: SqlEntityManager;

  constructor(em: SqlEntityManager) {
    this.em = em;
  }

  async updateCharacters(players: readonly { p: PlayerData; expected: number }[], now: Date): Promise<Set<string>> {
    if (players.length === 0) return new Set();
    const ids = textArray(players.map(({ p }) => p.characterId));
    await this.em.execute(`select "id" from "characters" where "id" = any(?::varchar[]) order by "id" for update`, [ids]);
    const rows = players.map(({ p, expected }) => [p.characterId, expected, ...characterValues(p)]);
    const sql =
      `update "characters" set ${CHARACTER_COLUMNS.map((c) => `${q(c)} = "v".${q(c)}`).join(", ")}, "updatedAt" = ?, "version" = "v"."vversion" + 1, ` +
      // The hiscores' tie-break: when the total xp grew (entities/hiscoreSql.ts).
      `"xpGainedAt" = case when ${storedTotalXp("v")} > ${storedTotalXp("characters")} then ?::float8 else "characters"."xpGainedAt" end ` +
      `from ${unnest(CHARACTER_TYPES)} as "v" ("vid", "vversion", ${CHARACTER_COLUMNS.map(q).join(", ")}) ` +
      `where "characters"."id" = "v"."vid" and "characters"."version" = "v"."vversion" returning "characters"."id"`;
    const written = await this.em.execute<{ id: string }[]>(sql, [now, now.getTime(), ...columnArrays(rows, CHARACTER_TYPES)]);
    return new Set(written.map((r) => r.id));
  }

  async writeItemRows(changes: readonly RowChanges[]): Promise<void> {
    const replaced = changes.filter((c) => c.replace).map((c) => c.characterId);
    if (replaced.length > 0)
      for (const table of ITEM_TABLE_NAMES)
        await this.em.execute(`delete from ${q(table)} where "characterId" = any(?::varchar[])`, [textArray(replaced)], "run");
    for (const table of ITEM_TABLE_NAMES) {
      const { upserts, deletes } = itemRows(changes, table);
      const types = ITEM_TYPES[table];
      if (deletes.length > 0) {
        await this.em.execute(
          `delete from ${q(table)} where ("characterId", ${q(ITEM_TABLES[table].key)}) in (select * from ${unnest(types.slice(0, 2))})`,
          columnArrays(deletes, types.slice(0, 2)),
          "run",
        );
      }
      if (upserts.length > 0) await this.em.execute(upsertSql(table, `select * from ${unnest(types)}`), columnArrays(upserts, types), "run");
    }
  }

  async addKills(kills: readonly [string, string, number][], now: Date): Promise<void> {
    if (kills.length === 0) return;
    const types = ["varchar", "varchar", "float8"] as const;
    await this.em.execute(
      `insert into "npcKills" ("characterId", "npcId", "killCount", "lastKillAt") select "c", "n", "k", ?::timestamptz from ${unnest(types)} as "v" ("c", "n", "k") ${KILLS_CONFLICT}`,
      [now, ...columnArrays(kills, types)],
      "run",
    );
  }
}

/** The part of a better-sqlite3 database these statements use (it ships no types). */
interface NativeStatement {
  run(...params: unknown[]): { changes: number };
}
interface NativeSqlite {
  prepare(sql: string): NativeStatement;
  readonly inTransaction: boolean;
}

async function nativeSqlite(em: SqlEntityManager): Promise<NativeSqlite> {
  const native = await (em.getConnection() as unknown as { getNativeClient(): Promise<NativeSqlite> }).getNativeClient();
  // The statements join the transaction MikroORM began on the connection (better-sqlite3 has one,
  // and Kysely lends it to one transaction at a time); outside one they would commit one by one.
  if (!native.inTransaction) throw new Error("a save's statements must run inside its transaction");
  return native;
}

/** Prepared statements by database: compiled once, run per row. */
const prepared = new WeakMap<NativeSqlite, Map<string, NativeStatement>>();

/**
 * SQLite: one prepared statement run per row, on better-sqlite3 directly. In-process and
 * synchronous, a row costs microseconds; compiling one large multi-row statement per chunk (and
 * MikroORM inlining its parameters) costs several times more. They are timed for the query
 * metrics as one query per kind and table.
 */
class SqliteStatements implements ChunkStatements {
  private readonly native: NativeSqlite;
  private readonly observe: QueryObserver | undefined;

  constructor(native: NativeSqlite, observe: QueryObserver | undefined) {
    this.native = native;
    this.observe = observe;
  }

  private statement(sql: string): NativeStatement {
    let cache = prepared.get(this.native);
    if (cache === undefined) prepared.set(this.native, (cache = new Map<string, NativeStatement>()));
    let stmt = cache.get(sql);
    if (stmt === undefined) cache.set(sql, (stmt = this.native.prepare(sql)));
    return stmt;
  }

  /** Runs the statement once per row, telling `changed` how many rows each run changed. */
  private runAll(kind: QueryKind, sql: string, rows: readonly (readonly unknown[])[], changed?: (row: number, changes: number) => void): void {
    if (rows.length === 0) return;
    const stmt = this.statement(sql);
    const started = performance.now();
    try {
      for (let i = 0; i < rows.length; i++) {
        const { changes } = stmt.run(...rows[i]!);
        changed?.(i, changes);
      }
    } catch (err) {
      this.observe?.(kind, (performance.now() - started) / 1000, true);
      throw err;
    }
    this.observe?.(kind, (performance.now() - started) / 1000, false);
  }

  updateCharacters(players: readonly { p: PlayerData; expected: number }[], now: Date): Promise<Set<string>> {
    const written = new Set<string>();
    this.runAll(
      "update",
      `update "characters" set ${CHARACTER_COLUMNS.map((c) => `${q(c)} = ?`).join(", ")}, "updatedAt" = ?, "version" = "version" + 1, ` +
        // The hiscores' tie-break: when the total xp grew (entities/hiscoreSql.ts); the old values on the right.
        `"xpGainedAt" = case when ? > ${TOTAL_XP_SQL} then ? else "xpGainedAt" end where "id" = ? and "version" = ?`,
      players.map(({ p, expected }) => [...characterValues(p), now.getTime(), totalXp(p), now.getTime(), p.characterId, expected]),
      (i, changes) => changes === 1 && written.add(players[i]!.p.characterId),
    );
    return Promise.resolve(written);
  }

  writeItemRows(changes: readonly RowChanges[]): Promise<void> {
    const replaced = changes.filter((c) => c.replace).map((c) => [c.characterId]);
    for (const table of ITEM_TABLE_NAMES) this.runAll("delete", `delete from ${q(table)} where "characterId" = ?`, replaced);
    for (const table of ITEM_TABLE_NAMES) {
      const { upserts, deletes } = itemRows(changes, table);
      this.runAll("delete", `delete from ${q(table)} where "characterId" = ? and ${q(ITEM_TABLES[table].key)} = ?`, deletes);
      this.runAll("insert", upsertSql(table, "values (?, ?, ?, ?)"), upserts);
    }
    return Promise.resolve();
  }

  addKills(kills: readonly [string, string, number][], now: Date): Promise<void> {
    this.runAll(
      "insert",
      `insert into "npcKills" ("characterId", "npcId", "killCount", "lastKillAt") values (?, ?, ?, ?) ${KILLS_CONFLICT}`,
      kills.map((k) => [...k, now.getTime()]),
    );
    return Promise.resolve();
  }
}
