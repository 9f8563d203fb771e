/**
 * The client's names (client/src/names.ts): kinds of things in sentence case, proper names as
 * written, over the bundled content as the server builds it, and the server's lines rewritten
 * with them; and which drawing an agility obstacle gets (client/src/art/obstacles.ts).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { obstacleKind } from "../../client/src/art/obstacles.ts";
import { applyDisplayNames, npcDisplayName, renameIn, sentenceCase } from "../../client/src/names.ts";
import { readManifestDir } from "../../src/manifests/validate.ts";
import { buildRegistry } from "../../src/manifests/registry.ts";

describe("client names: sentence case for kinds of things, proper names kept", () => {
  it("lowers every word but the first, and keeps words that are not a capital then lower case", () => {
    assert.equal(sentenceCase("Cooking Range"), "Cooking range");
    assert.equal(sentenceCase("Pale Essence Rock"), "Pale essence rock");
    assert.equal(sentenceCase("Tree"), "Tree");
    assert.equal(sentenceCase("Rat King II"), "Rat king II");
    assert.equal(sentenceCase("Old McKay Fence"), "Old McKay fence");
  });

  it("sentence-cases monsters only: bosses, villagers and quest givers keep their names", () => {
    assert.equal(npcDisplayName({ name: "Meadow Rat", category: "mob" }), "Meadow rat");
    assert.equal(npcDisplayName({ name: "Kalphite Queen", category: "boss" }), "Kalphite Queen");
    assert.equal(npcDisplayName({ name: "Warden Tamsin", category: "quest" }), "Warden Tamsin");
    assert.equal(npcDisplayName({ name: "Hobb the Provisioner", category: "neutral" }), "Hobb the Provisioner");
  });

  it("renames the bundled content's stations, resources and monsters, and the server's lines with them", () => {
    // A registry of its own: the renaming changes it (the client's copy), never a shared one.
    const { registry } = buildRegistry(readManifestDir(path.join(import.meta.dirname, "..", "..", "world", "assets", "manifests")).data);
    const changes = applyDisplayNames(registry);
    assert.equal(registry.stations.find((s) => s.type === "bank")?.name, "Bank booth");
    assert.equal(registry.stations.find((s) => s.type === "range")?.name, "Cooking range");
    assert.equal(registry.npcs.get("meadow_rat")?.name, "Meadow rat");
    assert.equal(registry.npcs.get("warden_tamsin")?.name, "Warden Tamsin");
    assert.ok([...registry.resources.values()].some((r) => r.name === "Copper rock" || r.name === "Shallow water"));
    assert.equal(renameIn("You have defeated the Meadow Rat.", changes), "You have defeated the Meadow rat.");
    assert.equal(renameIn("Meadow Rats and Warden Tamsin", changes), "Meadow Rats and Warden Tamsin", "whole names only");
  });

  it("draws an obstacle by a word of its id, name or verb", () => {
    assert.equal(obstacleKind("yard_log", "Mossy log", "Walk-across"), "log");
    assert.equal(obstacleKind("yard_net", "Climbing net", "Climb-over"), "net");
    assert.equal(obstacleKind("yard_rope", "Rope swing", "Swing-on"), "rope");
    assert.equal(obstacleKind("yard_wall", "Crumbling wall", "Climb-over"), "wall");
    assert.equal(obstacleKind("studio_thing", "Gloomspan", "Cross"), undefined);
  });
});
