/** Every table the server stores: the spec's list, plus bank, trade audit, agent mappings and moderation (sanctions, admin audit). */
import { AdminAudit } from "./AdminAudit.ts";
import { AgentMapping } from "./AgentMapping.ts";
import { BankSlot } from "./BankSlot.ts";
import { Character } from "./Character.ts";
import { CharacterLease } from "./CharacterLease.ts";
import { CharacterQuest } from "./CharacterQuest.ts";
import { EquipmentSlot } from "./EquipmentSlot.ts";
import { FriendRequest } from "./FriendRequest.ts";
import { GroundItemRow } from "./GroundItemRow.ts";
import { HiscoreCount } from "./HiscoreCount.ts";
import { Friendship } from "./Friendship.ts";
import { IgnoreEntry } from "./IgnoreEntry.ts";
import { InventorySlot } from "./InventorySlot.ts";
import { ItemDefinition } from "./ItemDefinition.ts";
import { NpcKill } from "./NpcKill.ts";
import { PlayerDeath } from "./PlayerDeath.ts";
import { PlayerSession } from "./PlayerSession.ts";
import { Sanction } from "./Sanction.ts";
import { TradeAudit } from "./TradeAudit.ts";
import { User } from "./User.ts";
import { WorldChunk } from "./WorldChunk.ts";

export {
  AdminAudit,
  AgentMapping,
  BankSlot,
  Character,
  CharacterLease,
  CharacterQuest,
  EquipmentSlot,
  FriendRequest,
  Friendship,
  GroundItemRow,
  HiscoreCount,
  IgnoreEntry,
  InventorySlot,
  ItemDefinition,
  NpcKill,
  PlayerDeath,
  PlayerSession,
  Sanction,
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
  Sanction,
  AdminAudit,
  CharacterQuest,
  HiscoreCount,
];
