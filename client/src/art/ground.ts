/**
 * The ground of the world view (Phaser), drawn once as pixel art from the content (groundArt.ts:
 * grass by biome, paths, sand, water, floors, walls, fences and rock faces, by why the content
 * blocks each tile), with a moving surface over the water. Roofs cover the buildings, with the
 * building's sign and name, and hide while you are inside.
 *
 * The ground is a few large textures (16 pixels a tile, shown at twice that), one quad each: a
 * headless browser's software GPU pays per pixel filled, and one textured quad over the view is
 * about what the flat fills it replaces cost (bench/client).
 */
import * as Phaser from "phaser";
import type { Bounds } from "../../../src/manifests/registry.ts";
import type { Content } from "../content.ts";
import { blockedOf, buildingsOf, GP, groundCanvas, inside, ROOF_LABEL, ROOF_SHADOW, roofCanvas, type Building } from "./groundArt.ts";
import { canvas } from "./pixels.ts";

/** Tiles a ground texture covers at most, each way (2048 pixels). */
const CHUNK = 128;

/** The ground's textures and images (depth `depth`), the water's moving surface and the roofs. */
export class Ground {
  private readonly water: Phaser.GameObjects.TileSprite[] = [];
  private readonly roofs: { bounds: Bounds; parts: (Phaser.GameObjects.Image | Phaser.GameObjects.Text | Phaser.GameObjects.Rectangle)[]; shown: boolean }[] =
    [];

  constructor(scene: Phaser.Scene, content: Content, tile: number, depth: { ground: number; water: number; roof: number }) {
    const buildings = buildingsOf(content);
    const b = content.collision.bounds;
    const w = b.maxX - b.minX + 1;
    const h = b.maxZ - b.minZ + 1;
    for (let cz = 0; cz < h; cz += CHUNK) {
      for (let cx = 0; cx < w; cx += CHUNK) {
        const c = groundCanvas(content, b.minX + cx, b.minZ + cz, Math.min(CHUNK, w - cx), Math.min(CHUNK, h - cz));
        const key = `art:ground:${cx},${cz}`;
        if (scene.textures.exists(key)) scene.textures.remove(key);
        scene.textures.addCanvas(key, c)!.setFilter(Phaser.Textures.FilterMode.NEAREST);
        scene.add
          .image((b.minX + cx) * tile, (b.minZ + cz) * tile, key)
          .setOrigin(0)
          .setScale(tile / GP)
          .setDepth(depth.ground);
      }
    }
    this.addWater(scene, content, tile, depth.water);
    this.addRoofs(scene, buildings, tile, depth.roof);
  }

  /** Light streaks over each water rectangle, drifting (a tile sprite whose texture scrolls). */
  private addWater(scene: Phaser.Scene, content: Content, tile: number, depth: number): void {
    const key = "art:water";
    if (!scene.textures.exists(key)) {
      const { c, g } = canvas(32, 32);
      g.fillStyle = "#ffffff38";
      for (const [x, y, l] of [
        [2, 4, 6],
        [18, 9, 5],
        [8, 17, 7],
        [22, 24, 6],
        [4, 28, 4],
      ] as const)
        g.fillRect(x, y, l, 1);
      g.fillStyle = "#9fd0ff30";
      for (const [x, y] of [
        [12, 2],
        [28, 14],
        [15, 26],
      ] as const)
        g.fillRect(x, y, 2, 1);
      scene.textures.addCanvas(key, c)!.setFilter(Phaser.Textures.FilterMode.NEAREST);
    }
    for (const r of blockedOf(content)) {
      if (!r.reason.startsWith("water")) continue;
      const s = scene.add
        .tileSprite(r.minX * tile, r.minZ * tile, (r.maxX - r.minX + 1) * tile, (r.maxZ - r.minZ + 1) * tile, key)
        .setOrigin(0)
        .setDepth(depth);
      s.setTileScale(2, 2);
      this.water.push(s);
    }
  }

  /** A roof over each building: shingles, the building's sign and name. */
  private addRoofs(scene: Phaser.Scene, buildings: Building[], tile: number, depth: number): void {
    for (const bl of buildings) {
      const r = bl.bounds;
      const tw = r.maxX - r.minX + 1;
      const th = r.maxZ - r.minZ + 1;
      const key = `art:roof:${bl.id}`;
      if (!scene.textures.exists(key)) scene.textures.addCanvas(key, roofCanvas(bl))!.setFilter(Phaser.Textures.FilterMode.NEAREST);
      // The roof's shadow on the ground to its lower right: the building stands up from the grass.
      const shadow = scene.add
        .rectangle((r.minX + ROOF_SHADOW.offset) * tile, (r.minZ + ROOF_SHADOW.offset) * tile, tw * tile, th * tile, 0x000000, ROOF_SHADOW.alpha)
        .setOrigin(0)
        .setDepth(depth - 0.01);
      const parts: (Phaser.GameObjects.Image | Phaser.GameObjects.Text | Phaser.GameObjects.Rectangle)[] = [
        shadow,
        scene.add
          .image(r.minX * tile, r.minZ * tile, key)
          .setOrigin(0)
          .setScale(tile / GP)
          .setDepth(depth),
      ];
      if (bl.name !== "") {
        parts.push(
          scene.add
            .text((r.minX + tw / 2) * tile, (r.maxZ + 1) * tile - 4, bl.name, {
              fontFamily: "sans-serif",
              fontSize: `${ROOF_LABEL.size}px`,
              fontStyle: "bold",
              color: ROOF_LABEL.color,
              stroke: ROOF_LABEL.stroke,
              strokeThickness: ROOF_LABEL.strokeWidth,
            })
            .setOrigin(0.5, 1)
            .setDepth(depth),
        );
      }
      this.roofs.push({ bounds: r, parts, shown: true });
    }
  }

  /** Each frame: the water moves; a roof fades out while `me` is under it, and back once out. */
  update(scene: Phaser.Scene, time: number, me: { x: number; z: number } | undefined): void {
    for (const [i, s] of this.water.entries()) {
      s.tilePositionX = (time / 90 + i * 7) % 32;
      s.tilePositionY = Math.sin(time / 900 + i) * 3;
    }
    let changed = false;
    for (const roof of this.roofs) {
      const show = me === undefined || !inside(roof.bounds, me.x, me.z);
      if (show === roof.shown) continue;
      roof.shown = show;
      changed = true;
      scene.tweens.killTweensOf(roof.parts);
      scene.tweens.add({ targets: roof.parts, alpha: show ? 1 : 0, duration: 250 });
    }
    // For scripts and tests, as data-view-center: how many roofs are lifted now.
    if (changed) scene.game.canvas.dataset.roofsHidden = String(this.roofs.filter((r) => !r.shown).length);
  }

  /** Whether a roof hides a tile now (what stands there is under it, out of sight). */
  roofOver(x: number, z: number): boolean {
    return this.roofs.some((r) => r.shown && inside(r.bounds, x, z));
  }
}
