/**
 * SQLite statements reused (src/db/sqliteStatements.ts): the string parameters are bound instead of
 * written into the text, everything else is written as MikroORM writes it, and a login of another
 * character compiles nothing new; values of every kind go in and come back as they did before.
 */
import assert from "node:assert/strict";
import { SqlitePlatform } from "@mikro-orm/sql";
import { Character, Sanction } from "../../entities/index.ts";
import { bindValues, MAX_BOUND_VALUES, ReusingSqliteConnection, reuseStatements, STATEMENT_CACHE_MAX_TEXT } from "../../src/db/sqliteStatements.ts";
import { loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { bundledContent } from "../support/content.ts";
import { sqliteSuiteDatabase } from "../support/sqlite.ts";

const platform = new SqlitePlatform();

/** The bound strings quoted back into their places: what MikroORM itself would have written. */
function requote(sql: string, parameters: (string | bigint)[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => platform.quoteValue(parameters[i++]!));
}

describe("SQLite statements: string parameters bound", () => {
  it("writes every other value as MikroORM does, and binds the strings in their places", () => {
    const when = new Date(Date.UTC(2026, 10, 27, 12, 0, 0));
    const cases: [string, unknown[], (string | bigint)[]][] = [
      ["select * from `t` where `a` = ? and `b` = ?", ["x'y?z", 5], ["x'y?z", 5n]],
      [
        "update `t` set `n` = ?, `f` = ?, `ok` = ?, `at` = ?, `gone` = ? where `id` = ?",
        [7, 1.5, true, when, null, "abc"],
        [7n, BigInt(when.getTime()), "abc"],
      ],
      ["select * from `t` where `n` = ? or `n` = ? limit ? offset ?", [-3, 2 ** 60, 10, 5], [-3n]],
      ["select * from `t` where `id` in (?) and `k` = ?", [["a", "b'c"], "k"], ["k"]],
      ["insert into ?? (`j`) values (?)", ["tbl", { a: "b" }], []],
      ["select * from `t` where ? = `a`", ["lead"], ["lead"]],
      ["select 1", [], []],
    ];
    for (const [sql, params, strings] of cases) {
      const bound = bindValues(platform, sql, params);
      assert.ok(bound !== undefined, sql);
      assert.equal(requote(bound.sql, bound.parameters), platform.formatQuery(sql, params), sql);
      assert.deepEqual(bound.parameters, strings, sql);
    }
    // An integer is bound as a BigInt (a number would bind as a REAL); a fraction, a boolean and a list stay in the text.
    assert.deepEqual(bindValues(platform, "select * from `t` where `a` = ? and `b` = ?", ["x", 5]), {
      sql: "select * from `t` where `a` = ? and `b` = ?",
      parameters: ["x", 5n],
    });
    assert.deepEqual(bindValues(platform, "select * from `t` where `a` = ? and `b` = ?", [1.5, false]), {
      sql: "select * from `t` where `a` = 1.5 and `b` = false",
      parameters: [],
    });
    // A LIMIT or OFFSET stays in the text: SQLite compiles a statement again at each new value of a bound LIMIT.
    assert.deepEqual(bindValues(platform, "select * from `t` where `a` = ? limit ?", [2, 1]), {
      sql: "select * from `t` where `a` = ? limit 1",
      parameters: [2n],
    });
    assert.deepEqual(bindValues(platform, "select * from `t` LIMIT ? OFFSET ?", [3, 4]), { sql: "select * from `t` LIMIT 3 OFFSET 4", parameters: [] });
    assert.deepEqual(bindValues(platform, "select * from `t` where `id` in (?)", [["a", "b"]]), {
      sql: "select * from `t` where `id` in ('a', 'b')",
      parameters: [],
    });
  });

  it("leaves a text it cannot follow to MikroORM's own writing: an escaped \\?, placeholders and parameters that do not match, DDL and pragmas, too many strings", () => {
    assert.equal(bindValues(platform, "select '\\?' from `t` where `a` = ?", ["x"]), undefined);
    assert.equal(bindValues(platform, "select * from `t` where `a` = ? and `b` = ?", ["x"]), undefined);
    assert.equal(bindValues(platform, "select * from `t` where `a` = ?", ["x", "y"]), undefined);
    // SQLite refuses a parameter where these take a literal.
    assert.equal(bindValues(platform, "create table `tt` (`a` text default ?)", ["x"]), undefined);
    assert.equal(bindValues(platform, "pragma table_info(?)", ["characters"]), undefined);
    // A long `$in` list: one `?` a value, past what is worth binding (SQLite takes at most 32,766).
    const many = Array.from({ length: MAX_BOUND_VALUES + 1 }, (_, i) => `n${i}`);
    const inList = `select * from \`t\` where \`a\` in (${many.map(() => "?").join(", ")})`;
    assert.equal(bindValues(platform, inList, many), undefined);
    assert.equal(bindValues(platform, inList.replace("?, ", ""), many.slice(1))?.parameters.length, MAX_BOUND_VALUES);
  });

  it("hands out the statement compiled before for the same text, not while it is being iterated, and keeps at most its size", () => {
    let compiles = 0;
    const made: { busy: boolean; text: string }[] = [];
    const db = {
      prepare(source: string) {
        compiles++;
        const s = { busy: false, text: source };
        made.push(s);
        return s;
      },
    };
    reuseStatements(db, 2);
    const a = db.prepare("a");
    assert.equal(db.prepare("a"), a);
    assert.equal(compiles, 1);
    a.busy = true;
    assert.notEqual(db.prepare("a"), a, "a statement still iterating is not handed out again");
    a.busy = false;
    db.prepare("b");
    db.prepare("a"); // used last: "b" is now the oldest
    db.prepare("c");
    const before = compiles;
    assert.equal(db.prepare("a"), a, "kept");
    db.prepare("b");
    assert.equal(compiles, before + 1, "the least recently used was let go");
    // A long text (a flush's rows written in) is compiled each time, never kept.
    const long = "x".repeat(STATEMENT_CACHE_MAX_TEXT + 1);
    assert.notEqual(db.prepare(long), db.prepare(long));
    assert.equal(db.prepare("a"), a, "and pushes nothing out");
  });
});

describe("SQLite statements: through the server's database", () => {
  const sqlite = sqliteSuiteDatabase("sqlite-statements-");

  it("compiles a login's queries once: another character's login compiles nothing", async () => {
    const connection = sqlite.db.em().getConnection();
    assert.ok(connection instanceof ReusingSqliteConnection, "the server's SQLite connection");
    const content = await bundledContent();
    const made = await Promise.all(["a", "b", "c"].map((n) => loadOrCreatePlayer(sqlite.db, content, { accountId: `acc-${n}`, name: `Stmt${n}` })));
    const first = await loadOrCreatePlayer(sqlite.db, content, { accountId: "acc-a" });
    assert.equal(first.characterId, made[0]!.characterId);
    const compiled = connection.compiledStatements();
    const second = await loadOrCreatePlayer(sqlite.db, content, { accountId: "acc-b" });
    const third = await loadOrCreatePlayer(sqlite.db, content, { accountId: "acc-c", characterId: made[2]!.characterId });
    assert.equal(connection.compiledStatements(), compiled, "no statement compiled for the other logins");
    assert.equal(second.characterId, made[1]!.characterId);
    assert.equal(third.name, "Stmtc");
    assert.deepEqual(third.inventory, made[2]!.inventory, "its rows read back");
  });

  it("stores an integer bound as the literal would be: an INTEGER in an INTEGER column, its digits in a TEXT one, a fraction a REAL", async () => {
    const conn = sqlite.db.em().getConnection();
    await conn.execute("create table if not exists `kinds` (`i` integer, `t` text, `r` real, `n`)");
    // Through MikroORM's own parameters (each `?` of the query filled from the list).
    await conn.execute("insert into `kinds` (`i`, `t`, `r`, `n`) values (?, ?, ?, ?)", [5, 5, 5, 5]);
    await conn.execute("insert into `kinds` (`i`, `t`, `r`, `n`) values (?, ?, ?, ?)", [1.5, 1.5, 1.5, 1.5]);
    await conn.execute("insert into `kinds` (`i`, `t`, `r`, `n`) values (?, ?, ?, ?)", [new Date(1_795_836_043_490), -7, 2 ** 60, true]);
    const rows = await conn.execute<Record<string, unknown>[]>(
      "select typeof(`i`) ti, `i`, typeof(`t`) tt, `t`, typeof(`r`) tr, `r`, typeof(`n`) tn, `n` from `kinds` order by rowid",
    );
    // As the same values written into the text as literals would be stored.
    await conn.execute("delete from `kinds`");
    const literal = await conn.execute<unknown[]>(
      "insert into `kinds` (`i`, `t`, `r`, `n`) values (5, 5, 5, 5), (1.5, 1.5, 1.5, 1.5), (1795836043490, -7, 1152921504606846976, true) returning rowid",
    );
    assert.equal(literal.length, 3);
    const expected = await conn.execute<Record<string, unknown>[]>(
      "select typeof(`i`) ti, `i`, typeof(`t`) tt, `t`, typeof(`r`) tr, `r`, typeof(`n`) tn, `n` from `kinds` order by rowid",
    );
    assert.deepEqual(rows, expected);
    assert.deepEqual(rows[0], { ti: "integer", i: 5, tt: "text", t: "5", tr: "real", r: 5, tn: "integer", n: 5 });
    await conn.execute("drop table `kinds`");
  });

  it("stores and reads back strings with quotes and question marks, dates, numbers and nulls as before", async () => {
    const reason = "it's a test? with 'quotes' and ?? marks";
    const endsAt = new Date(Date.UTC(2027, 0, 2, 3, 4, 5));
    const em = sqlite.db.em();
    em.create(Sanction, { accountId: "acc-q?'", kind: "mute", endsAt, reason, byAccountId: "admin'1" });
    em.create(Sanction, { accountId: "acc-n", kind: "ban", endsAt: null, reason: null, byAccountId: "admin" });
    await em.flush();
    const read = await sqlite.db.em().findOneOrFail(Sanction, { accountId: "acc-q?'", kind: "mute" });
    assert.equal(read.reason, reason);
    assert.equal(read.byAccountId, "admin'1");
    assert.equal(read.endsAt?.getTime(), endsAt.getTime());
    const ban = await sqlite.db.em().findOneOrFail(Sanction, { accountId: "acc-n" });
    assert.equal(ban.endsAt, null);
    assert.equal(ban.reason, null);
    // A number into an integer column stays an integer (bound, 5 would have been a REAL 5.0).
    const c = await sqlite.db.em().findOneOrFail(Character, { name: "Stmta" });
    await sqlite.db.em().nativeUpdate(Character, { id: c.id }, { coins: 5, positionX: 12.5 });
    const raw = await sqlite.db
      .em()
      .getConnection()
      .execute<{ t: string; coins: number; positionX: number }[]>("select typeof(coins) t, coins, positionX from characters where id = ?", [c.id]);
    assert.deepEqual(raw, [{ t: "integer", coins: 5, positionX: 12.5 }]);
    assert.equal((await sqlite.db.em().find(Character, { name: { $in: ["Stmta", "Stmtb", "none'?"] } })).length, 2, "a list in the text");
  });
});
