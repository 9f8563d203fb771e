/**
 * One change to an account's lists (SocialService.change), by the other player, stored first; then
 * both accounts are told through `tell` (their lists changed, and how). Rejects with a SocialError
 * when refused (nothing changed).
 */
import type { Database } from "../db/orm.ts";
import { acceptFriend, addFriend, addIgnore, declineFriend, removeFriend, removeIgnore, type NamedAccount } from "../persistence/social.ts";
import type { SocialBudgets } from "./socialBudgets.ts";
import type { Change, SocialChangeEvent } from "./socialChannels.ts";

/** Tells an account that its lists changed: `kind` of change about the other account, or only that they changed. */
export type Tell = (to: NamedAccount, kind: Change["kind"] | undefined, about: NamedAccount) => void;

export async function applyChange(
  db: Database,
  budgets: SocialBudgets,
  event: SocialChangeEvent,
  me: NamedAccount,
  other: NamedAccount,
  tell: Tell,
): Promise<void> {
  switch (event) {
    case "social:addFriend": {
      await budgets.takeRequest(me.accountId);
      const outcome = await addFriend(db, me.accountId, other.accountId);
      tell(me, outcome === "accepted" ? "friendAdded" : "requestSent", other);
      tell(other, outcome === "accepted" ? "friendAdded" : "requestReceived", me);
      return;
    }
    case "social:acceptFriend":
      await acceptFriend(db, me.accountId, other.accountId);
      tell(me, "friendAdded", other);
      tell(other, "friendAdded", me);
      return;
    case "social:declineFriend":
      await declineFriend(db, me.accountId, other.accountId);
      tell(me, "requestDeclined", other);
      tell(other, "requestDeclined", me);
      return;
    case "social:removeFriend": {
      const kind = (await removeFriend(db, me.accountId, other.accountId)) === "removed" ? "friendRemoved" : "requestWithdrawn";
      tell(me, kind, other);
      tell(other, kind, me);
      return;
    }
    case "social:addIgnore":
      // The ignored account hears nothing of it; only its dropped request, if it had one, leaves its lists.
      if (await addIgnore(db, me.accountId, other.accountId)) tell(other, undefined, me);
      tell(me, "ignoreAdded", other);
      return;
    case "social:removeIgnore":
      await removeIgnore(db, me.accountId, other.accountId);
      tell(me, "ignoreRemoved", other);
      return;
  }
}
