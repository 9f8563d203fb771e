/**
 * Generates the next migration for both dialects from the entity definitions:
 *   npm run migration:create -- <name>
 * Each dialect is diffed against a scratch database brought up to the committed migrations
 * (SQLite in memory; PostgreSQL at TEST_PG_URL or 127.0.0.1:5432, a throwaway database).
 */
import pg from "pg";
import { pino } from "pino";
import { createOrm } from "../src/db/orm.ts";
import { parseCli } from "../src/cli.ts";

const { positionals } = parseCli(
  {
    command: "npm run migration:create -- <name>",
    summary: "Generates the next migration for both dialects (SQLite, PostgreSQL at TEST_PG_URL) from the entity definitions; <name> defaults to `update`.",
  },
  { options: {}, allowPositionals: true },
);
const name = positionals[0] ?? "update";
const logger = pino({ level: "warn" });
const adminUrl = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const scratch = `migration_scratch_${process.pid}`;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${scratch}"`);
try {
  const pgUrl = new URL(adminUrl);
  pgUrl.pathname = `/${scratch}`;
  for (const url of ["sqlite::memory:", pgUrl.toString()]) {
    const orm = await createOrm(url, logger);
    try {
      await orm.migrator.up();
      const res = await orm.migrator.create(undefined, false, false, name);
      process.stdout.write(`${url.split(":")[0]}: ${res.fileName || "(no changes)"}\n`);
    } finally {
      await orm.close(true);
    }
  }
} finally {
  await admin.query(`drop database if exists "${scratch}"`);
  await admin.end();
}
