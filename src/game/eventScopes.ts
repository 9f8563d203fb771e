/**
 * Whom each client event acts on: the character that sends it (`character`), or the account
 * behind it (`account`: the friends and ignore lists, which every character of the account
 * shares). The transports let an agent's token send character events only (src/auth/agentScope.ts):
 * an agent plays as its character, and the account is its owner's. The type demands a decision
 * for every event of the protocol table, so a new event cannot slip through undecided.
 */
import type { ClientEventName } from "./clientEvents.ts";
import { QUEST_EVENT_SCOPES } from "./questEvents.ts";

export type EventScope = "character" | "account";

export const EVENT_SCOPES: { readonly [K in ClientEventName]: EventScope } = {
  "player:move": "character",
  "player:chat": "character",
  "player:action": "character",
  "inventory:use": "character",
  "equipment:remove": "character",
  "player:setCombatStyle": "character",
  "player:setAutocast": "character",
  "player:setRun": "character",
  "player:setAutoRetaliate": "character",
  "prayer:toggle": "character",
  "skill:make": "character",
  "skill:getRecipes": "character",
  "bank:deposit": "character",
  "bank:withdraw": "character",
  "store:buy": "character",
  "store:sell": "character",
  tradeRequest: "character",
  tradeRequestRespond: "character",
  tradeAddItem: "character",
  tradeSetCoins: "character",
  tradeRemoveItem: "character",
  tradeAccept: "character",
  tradeCancel: "character",
  // Reading the lists lets an agent see its friends (changes reach its connection anyway) and
  // message them as its character; changing them is the owner's.
  "social:getList": "character",
  "social:sendMessage": "character",
  "social:addFriend": "account",
  "social:acceptFriend": "account",
  "social:declineFriend": "account",
  "social:removeFriend": "account",
  "social:addIgnore": "account",
  "social:removeIgnore": "account",
  ...QUEST_EVENT_SCOPES,
};

/** An event's scope; undefined for a name that is not a client event of the game. */
export function eventScope(type: string): EventScope | undefined {
  return Object.hasOwn(EVENT_SCOPES, type) ? EVENT_SCOPES[type as ClientEventName] : undefined;
}
