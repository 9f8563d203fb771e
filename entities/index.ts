/** Every table the server stores: the spec's list, plus bank, trade audit and agent mappings. */
import { AgentMapping } from "./AgentMapping.ts";
import { BankSlot } from "./BankSlot.ts";
import { Character } from "./Character.ts";
import { CharacterLease } from "./CharacterLease.ts";
import { EquipmentSlot } from "./EquipmentSlot.ts";
import { FriendRequest } from "./FriendRequest.ts";
import { GroundItemRow } from "./GroundItemRow.ts";
import { Friendship } from "./Friendship.ts";
import { IgnoreEntry } from "./IgnoreEntry.ts";
import { InventorySlot } from "./InventorySlot.ts";
import { ItemDefinition } from "./ItemDefinition.ts";
import { NpcKill } from "./NpcKill.ts";
import { PlayerDeath } from "./PlayerDeath.ts";
import { PlayerSession } from "./PlayerSession.ts";
import { TradeAudit } from "./TradeAudit.ts";
import { User } from "./User.ts";
import { WorldChunk } from "./WorldChunk.ts";

export {
  AgentMapping,
  BankSlot,
  Character,
  CharacterLease,
  EquipmentSlot,
  FriendRequest,
  Friendship,
  GroundItemRow,
  IgnoreEntry,
  InventorySlot,
  ItemDefinition,
  NpcKill,
  PlayerDeath,
  PlayerSession,
  TradeAudit,
  User,
  WorldChunk,
};

export const ENTITIES = [
  User,
  Character,
  InventorySlot,
  EquipmentSlot,
  ItemDefinition,
  WorldChunk,
  PlayerSession,
  PlayerDeath,
  NpcKill,
  Friendship,
  FriendRequest,
  IgnoreEntry,
  BankSlot,
  TradeAudit,
  AgentMapping,
  CharacterLease,
  GroundItemRow,
];
