/**
 * Works out `characters.nameKey` for the characters a database already has, for the migration that
 * adds the column (both dialects, `Migration…_name_keys`): SQL cannot compute a name's key
 * (src/game/names.ts), so the rows are read and written here, in the migration's transaction.
 *
 * Before keys, `Zezima`, `zezima` and `Zezlma` could all exist. The oldest character of each key
 * (earliest `createdAt`, then lowest id) keeps its name; every later one is renamed
 * (`assignNameKeys`: `Zezima2`, …) with its old name in `renamedFrom`, so that its player is told
 * at the next login (persistence/names.ts). No character is deleted.
 */
import { assignNameKeys } from "../game/names.ts";
import { dateOf, runStatement, selectRows, type Statements } from "./rawSql.ts";

/** Rows written per statement: 3 parameters each, far below either database's limit. */
const WRITE_CHUNK = 500;

export async function keyExistingNames(em: Statements): Promise<{ characters: number; renamed: number }> {
  const rows = await selectRows<{ id: string; name: string; createdAt: unknown }>(em, `select "id", "name", "createdAt" from "characters"`, []);
  // Ordered here, not in SQL: SQLite may hold a datetime as milliseconds or as text (rawSql.ts, dateOf).
  const oldestFirst = rows
    .map((r) => ({ id: String(r.id), name: String(r.name), at: dateOf(em, r.createdAt)?.getTime() ?? 0 }))
    .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const keyed = assignNameKeys(oldestFirst);
  for (let i = 0; i < keyed.length; i += WRITE_CHUNK) {
    const chunk = keyed.slice(i, i + WRITE_CHUNK);
    // One statement a chunk, the same text on both databases: the new values as a table joined by id.
    const values = chunk.map(() => "(?, ?, ?, ?)").join(", ");
    await runStatement(
      em,
      `with "v"("id", "name", "nameKey", "renamedFrom") as (values ${values}) ` +
        `update "characters" set "name" = (select "v"."name" from "v" where "v"."id" = "characters"."id"), ` +
        `"nameKey" = (select "v"."nameKey" from "v" where "v"."id" = "characters"."id"), ` +
        `"renamedFrom" = (select "v"."renamedFrom" from "v" where "v"."id" = "characters"."id") ` +
        `where "id" in (select "id" from "v")`,
      chunk.flatMap((c) => [c.id, c.name, c.nameKey, c.renamedFrom]),
    );
  }
  return { characters: keyed.length, renamed: keyed.filter((c) => c.renamedFrom !== null).length };
}
