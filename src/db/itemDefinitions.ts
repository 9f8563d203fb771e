/**
 * Mirrors the content's item definitions into the `items` table at startup, so that SQL tools,
 * reports and audits see names and values. Rows for items the content no longer has are kept:
 * inventories and audit logs may still name them.
 */
import { ItemDefinition } from "../../entities/index.ts";
import type { ContentRegistry } from "../manifests/registry.ts";
import type { Database } from "./orm.ts";

/** Rows per statement: well below SQLite's and PostgreSQL's bound-parameter limits. */
export const ITEM_SYNC_CHUNK = 200;

export async function syncItemDefinitions(db: Database, content: ContentRegistry): Promise<number> {
  const rows = [...content.items.values()].map((item) => ({
    id: item.id,
    name: item.name,
    type: item.type,
    value: item.value,
    stackable: item.stackable,
    tradeable: item.tradeable,
    data: item,
  }));
  await db.em().transactional(async (em) => {
    for (let i = 0; i < rows.length; i += ITEM_SYNC_CHUNK) {
      await em.upsertMany(ItemDefinition, rows.slice(i, i + ITEM_SYNC_CHUNK));
    }
  });
  return rows.length;
}
