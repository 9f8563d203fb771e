/** An account's social lists as `social:list` shows them, with its friends' status (SocialService). */
import type { Database } from "../db/orm.ts";
import { accountNames, loadSocial } from "../persistence/social.ts";
import type { OnlineEntry, SocialLists } from "./socialChannels.ts";

/** The account's lists (friends with their status from `entryOf`, the online hash), and its ignore set. */
export async function readLists(
  db: Database,
  accountId: string,
  entryOf: (accountId: string) => Promise<OnlineEntry | undefined>,
): Promise<{ lists: SocialLists; ignored: Set<string> }> {
  const rows = await loadSocial(db, accountId);
  const entries = await Promise.all(rows.friends.map((id) => entryOf(id)));
  const online = new Map<string, OnlineEntry>();
  rows.friends.forEach((id, i) => entries[i] !== undefined && online.set(id, entries[i]));
  const names = await accountNames(db, [...rows.friends, ...rows.incoming, ...rows.outgoing, ...rows.ignored]);
  // An account without a character (all deleted) has no name to show or to be named by.
  const named = (ids: string[]) => ids.flatMap((accountId) => (names.has(accountId) ? [{ accountId, name: names.get(accountId)! }] : []));
  const friends = rows.friends.flatMap((accountId): SocialLists["friends"] => {
    const entry = online.get(accountId);
    if (entry !== undefined) return [{ accountId, name: entry.name, online: true, world: entry.world }];
    return names.has(accountId) ? [{ accountId, name: names.get(accountId)!, online: false, world: null }] : [];
  });
  return { lists: { friends, incoming: named(rows.incoming), outgoing: named(rows.outgoing), ignored: named(rows.ignored) }, ignored: new Set(rows.ignored) };
}
