/**
 * The migration that adds prayer points (`Migration…_prayer_points`, both dialects): on a database
 * of the schema before it, every character gets full points, as many as its Prayer level (until
 * then points were never spent); a new character starts with 1 (Prayer level 1).
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/orm.ts";
import { runStatement, selectRows } from "../../src/db/rawSql.ts";
import { nameKey } from "../../src/game/names.ts";
import { forEachDialect } from "../support/dialects.ts";

forEachDialect("the prayer points migration", (ctx) => {
  it("gives every stored character its Prayer level in points, and a new one 1", async function () {
    this.timeout(60_000);
    const db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
    try {
      const executed = await db.orm.migrator.getExecuted();
      const index = executed.findIndex((m) => /_prayer_points$/.test(m.name));
      assert.ok(index > 0, "the prayer points migration was applied");
      await db.orm.migrator.down({ to: executed[index - 1]!.name });
      const stored: [id: string, name: string, prayerLevel: number][] = [
        ["p-1", "Monk", 1],
        ["p-2", "Priest", 43],
        ["p-3", "Saint", 99],
      ];
      for (const [id, name, prayerLevel] of stored) {
        await runStatement(db.statements, `insert into "characters" ("id", "accountId", "name", "nameKey", "prayerLevel") values (?, ?, ?, ?, ?)`, [
          id,
          `acc-${id}`,
          name,
          nameKey(name),
          prayerLevel,
        ]);
      }
      await db.orm.migrator.up();
      assert.equal((await db.orm.migrator.getPending()).length, 0);
      const rows = await selectRows<{ id: string; prayerPoints: number }>(db.statements, `select "id", "prayerPoints" from "characters" order by "id"`, []);
      assert.deepEqual(
        rows.map((r) => [r.id, Number(r.prayerPoints)]),
        stored.map(([id, , level]) => [id, level]),
      );
      await runStatement(db.statements, `insert into "characters" ("id", "accountId", "name", "nameKey") values (?, ?, ?, ?)`, [
        "p-new",
        "acc-new",
        "Novice",
        nameKey("Novice"),
      ]);
      const fresh = await selectRows<{ prayerPoints: number }>(db.statements, `select "prayerPoints" from "characters" where "id" = ?`, ["p-new"]);
      assert.equal(Number(fresh[0]!.prayerPoints), 1);
    } finally {
      await db.close();
    }
  });
});
