/**
 * The hiscores on both databases: the order of every table (total level, total xp, who got there
 * first, id), the ranks of one character agreeing with the pages, deleted characters left out,
 * the save's `xpGainedAt` (moved only by a growth of the total xp), and on PostgreSQL the plan of
 * a page: an index scan of the table's index, no sequential scan, over enough rows that a scan
 * and a sort would be an option.
 */
import assert from "node:assert/strict";
import { pino } from "pino";
import { Character } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { bucketSql, HISCORE_SKILLS, hiscoreIndexName, orderBySql, rankKeys } from "../../entities/hiscoreSql.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { selectRows } from "../../src/db/rawSql.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { characterRanks, hiscoreEntries, hiscorePage, pageSql, ranksStatement, wholeXp } from "../../src/persistence/hiscores.ts";
import { createCharacter, deleteCharacter, savePlayers, type StoredPlayer } from "../../src/persistence/players.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";

forEachDialect("the hiscores", (ctx) => {
  let db: Database;
  const made: StoredPlayer[] = [];
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
  });
  after(() => db?.close());

  async function character(name: string, set: Record<string, number>): Promise<string> {
    const c = await createCharacter(db, await bundledContent(), `account-${name}`, name);
    made.push(c);
    await db.em().nativeUpdate(Character, { id: c.characterId }, set);
    return c.characterId;
  }

  it("ranks overall by total level, then total xp, then who got there first, then id; a skill by its xp", async () => {
    // A: total level 41 (attack 16, constitution 10, the others 1); B and C: total level 40 with more xp than A; B reached it first.
    const a = await character("Alpha", { attackLevel: 16, attackXpTenths: 2_500 * 10, xpGainedAt: 3_000 });
    const b = await character("Bravo", { strengthLevel: 15, strengthXpTenths: 9_000 * 10, xpGainedAt: 1_000 });
    const c = await character("Charlie", { strengthLevel: 15, strengthXpTenths: 9_000 * 10, xpGainedAt: 2_000 });
    const d = await character("Delta", { miningLevel: 2, miningXpTenths: 90 * 10, xpGainedAt: 500 });
    const e = await character("Echo", { xpGainedAt: 100 });
    const page = await hiscorePage(db.statements, "overall", 10, 0);
    assert.equal(page.total, 5);
    assert.deepEqual(
      page.entries.map((x) => [x.rank, x.name, x.level, x.xp]),
      [
        [1, "Alpha", 41, 2_500 + 1_154],
        [2, "Bravo", 40, 9_000 + 1_154],
        [3, "Charlie", 40, 9_000 + 1_154],
        [4, "Delta", 27, 90 + 1_154],
        [5, "Echo", 26, 1_154],
      ],
    );
    // A page further on starts at its rank.
    assert.deepEqual(
      (await hiscoreEntries(db.statements, "overall", 2, 2)).map((x) => [x.rank, x.name]),
      [
        [3, "Charlie"],
        [4, "Delta"],
      ],
    );
    assert.deepEqual(
      (await hiscoreEntries(db.statements, "strength", 3, 0)).map((x) => [x.rank, x.name, x.level, x.xp]),
      [
        [1, "Bravo", 15, 9_000],
        [2, "Charlie", 15, 9_000],
        [3, "Echo", 1, 0],
      ],
    );
    // Every table agrees with the ranks of each character.
    for (const id of [a, b, c, d, e]) {
      const mine = (await characterRanks(db.statements, id))!;
      assert.deepEqual(
        mine.ranks.map((r) => r.skill),
        HISCORE_SKILLS,
      );
      for (const r of mine.ranks) {
        const entries = await hiscoreEntries(db.statements, r.skill, 100, 0);
        const at = entries.findIndex((x) => x.name === mine.name);
        assert.deepEqual(
          { rank: r.rank, level: r.level, xp: r.xp },
          { rank: at + 1, level: entries[at]!.level, xp: entries[at]!.xp },
          `${mine.name} in ${r.skill}`,
        );
      }
    }
    assert.equal(await characterRanks(db.statements, "no-such-character"), undefined);
  });

  it("leaves deleted characters out", async () => {
    const before = await hiscorePage(db.statements, "overall", 100, 0);
    const gone = made.find((m) => m.name === "Alpha")!;
    assert.equal(await deleteCharacter(db, gone.characterId), true);
    const after = await hiscorePage(db.statements, "overall", 100, 0);
    assert.equal(after.total, before.total - 1);
    assert.deepEqual(
      after.entries.map((x) => [x.rank, x.name]),
      [
        [1, "Bravo"],
        [2, "Charlie"],
        [3, "Delta"],
        [4, "Echo"],
      ],
    );
    assert.equal(await characterRanks(db.statements, gone.characterId), undefined);
  });

  it("moves xpGainedAt at a save that grows the total xp, and at no other", async () => {
    const c = await createCharacter(db, await bundledContent(), "account-gainer", "Gainer");
    const gainedAt = async () => Number((await db.em().fork().findOneOrFail(Character, { id: c.characterId })).xpGainedAt);
    const created = await gainedAt();
    assert.ok(Math.abs(created - Date.now()) < 60_000, "a new character's time is its creation");
    const versions = new Map([[c.characterId, c.version]]);
    const moved = { ...c, x: c.x + 1 };
    await savePlayers(db, [moved], versions);
    assert.equal(await gainedAt(), created, "a save without xp leaves it");
    await new Promise((r) => setTimeout(r, 5));
    const gained = { ...moved, skills: { ...moved.skills, fishing: { level: 2, xpTenths: 1_000 } } };
    const before = Date.now();
    await savePlayers(db, [gained], versions);
    const after = await gainedAt();
    assert.ok(after >= before && after <= Date.now(), `the save's time: ${after}`);
    await savePlayers(db, [{ ...gained, x: gained.x + 1 }], versions);
    assert.equal(await gainedAt(), after, "a later save without a gain keeps it");
  });

  it("keeps every bucket's count through inserts, saves, updates and deletions, and answers every page and rank as a plain scan would", async function () {
    this.timeout(60_000);
    // 240 more characters with spread levels, xp and times (ties on every key included).
    const skillSets = SKILLS.map((s) => `"${s}Level", "${s}XpTenths"`).join(", ");
    const skillValues = SKILLS.map((_s, i) => `1 + (g * ${3 + i}) % 7, (g * ${13 + i}) % 5 * 1000`).join(", ");
    await db.statements.execute(
      `insert into "characters" ("id", "accountId", "name", "nameKey", "xpGainedAt", ${skillSets}) ` +
        `with recursive "n" ("g") as (select 1 union all select "g" + 1 from "n" where "g" < 240) ` +
        `select 'spread-' || "g", 'spread-account', 'spread' || "g", 'spread' || "g", "g" % 4, ${skillValues} from "n"`,
    );
    const recount = async () => {
      const union = HISCORE_SKILLS.map((t) => `select '${t}' as "board", ${bucketSql(t)} as "bucket", count(*) as "n" from "characters" group by 2`).join(
        " union all ",
      );
      const want = await selectRows<{ board: string; bucket: number; n: number }>(db.statements, `select * from (${union}) as "r" order by 1, 2`, []);
      const kept = await selectRows<{ board: string; bucket: number; n: number }>(
        db.statements,
        `select "board", "bucket", "n" from "hiscoreCounts" where "n" <> 0 order by 1, 2`,
        [],
      );
      assert.deepEqual(
        kept.map((r) => [r.board, Number(r.bucket), Number(r.n)]),
        want.map((r) => [r.board, Number(r.bucket), Number(r.n)]),
      );
    };
    await recount();
    // A save that levels up (and one that does not), a direct update of a level, a deletion.
    const saved = await createCharacter(db, await bundledContent(), "account-leveller", "Leveller");
    await recount();
    const versions = new Map([[saved.characterId, saved.version]]);
    const levelled = { ...saved, skills: { ...saved.skills, mining: { level: 5, xpTenths: 4_000 }, cooking: { level: 3, xpTenths: 1_800 } } };
    await savePlayers(db, [levelled], versions);
    await savePlayers(db, [{ ...levelled, x: levelled.x + 1 }], versions);
    await recount();
    await db.statements.execute(`update "characters" set "fishingLevel" = "fishingLevel" + 1 where "id" like 'spread-1%'`);
    await recount();
    assert.equal(await deleteCharacter(db, "spread-7"), true);
    await recount();
    const total = (await hiscorePage(db.statements, "overall", 1, 0)).total;
    assert.equal(total, Number((await selectRows<{ n: number }>(db.statements, `select count(*) as "n" from "characters"`, []))[0]!.n));
    for (const skill of ["overall", "fishing", "agility"] as const) {
      const all = (await selectRows<{ name: string }>(db.statements, `select "name" from "characters" order by ${orderBySql(skill)}`, [])).map((r) => r.name);
      for (let offset = 0; offset <= all.length; offset += 7) {
        const page = await hiscoreEntries(db.statements, skill, 9, offset);
        assert.deepEqual(
          page.map((e) => [e.rank, e.name]),
          all.slice(offset, offset + 9).map((name, i) => [offset + i + 1, name]),
          `${skill} at ${offset}`,
        );
      }
    }
    for (const id of ["spread-1", "spread-2", "spread-120", "spread-239", saved.characterId]) {
      const mine = (await characterRanks(db.statements, id))!;
      for (const r of mine.ranks) {
        const all = (await selectRows<{ id: string }>(db.statements, `select "id" from "characters" order by ${orderBySql(r.skill)}`, [])).map((x) => x.id);
        assert.equal(r.rank, all.indexOf(id) + 1, `${id} in ${r.skill}`);
      }
    }
    await db.statements.execute(`delete from "characters" where "id" like 'spread-%'`);
    await recount();
  });

  it("reads a page of each table from its index, in its order (the query plan)", async function () {
    if (ctx.dialect !== "postgresql") {
      // SQLite's plan: the page is read from the index too (no temp b-tree for the order).
      for (const skill of ["overall", "mining"] as const) {
        const plan = await selectRows<{ detail: string }>(db.statements, `explain query plan ${pageSql(skill)}`, [50, 25, 0]);
        const text = plan.map((p) => p.detail).join("\n");
        assert.match(text, new RegExp(hiscoreIndexName(skill)), text);
        assert.doesNotMatch(text, /TEMP B-TREE/, text);
      }
      return;
    }
    this.timeout(60_000);
    // 20,000 more characters with spread levels and xp, then the statistics the planner reads.
    const skillSets = SKILLS.map((s) => `"${s}Level", "${s}XpTenths"`).join(", ");
    const skillValues = SKILLS.map((_s, i) => `1 + (g * ${7 + i}) % 98, (g * ${7919 + i * 31}) % 13000000`).join(", ");
    await db.statements.execute(
      `insert into "characters" ("id", "accountId", "name", "nameKey", "xpGainedAt", ${skillSets}) ` +
        `select 'plan-' || g, 'plan-account', 'plan' || g, 'plan' || g, g, ${skillValues} from generate_series(1, 20000) as g`,
    );
    await db.statements.execute(`analyze "characters"`);
    for (const skill of ["overall", "mining"] as const) {
      // A page at the top, and one starting deep inside a bucket (the bucket's first row on).
      for (const [bucket, offset] of [
        [skill === "overall" ? 2_000 : 99, 0],
        [skill === "overall" ? 900 : 50, 150],
      ] as const) {
        const rows = await selectRows<{ "QUERY PLAN": string }>(db.statements, `explain ${pageSql(skill)}`, [bucket, 100, offset]);
        const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
        assert.match(plan, new RegExp(`Index Scan using ${hiscoreIndexName(skill)}`), plan);
        assert.doesNotMatch(plan, /Seq Scan|Sort/, plan);
      }
    }
    // A character's ranks: the counts' key and ranges of the tables' indexes, no scan of the characters.
    const me = (
      await selectRows<Record<string, unknown>>(
        db.statements,
        `select "id", "xpGainedAt", ${HISCORE_SKILLS.map((t, i) => `${bucketSql(t)} as "l${i}", ${rankKeys(t)[1]!.sql} as "x${i}"`).join(", ")} from "characters" where "id" = 'plan-10000'`,
        [],
      )
    )[0]!;
    const { sql, params } = ranksStatement(me);
    const ranksPlan = (await selectRows<{ "QUERY PLAN": string }>(db.statements, `explain ${sql}`, params)).map((r) => r["QUERY PLAN"]).join("\n");
    assert.doesNotMatch(ranksPlan, /Seq Scan on characters/, ranksPlan);
    for (const skill of HISCORE_SKILLS)
      assert.match(ranksPlan, new RegExp(`(Index (Only )?Scan using|Bitmap Index Scan on) ${hiscoreIndexName(skill)}`), ranksPlan);
    // And what the queries answer over them is in that order.
    const top = await hiscoreEntries(db.statements, "overall", 100, 0);
    for (let i = 1; i < top.length; i++) {
      const [p, q] = [top[i - 1]!, top[i]!];
      assert.ok(p.level > q.level || (p.level === q.level && p.xp >= q.xp), `${p.name} before ${q.name}`);
    }
    assert.equal(wholeXp(12_345), 1_234, "stored tenths, answered as whole xp");
  });
});
