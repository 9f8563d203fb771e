/** What the world view draws for one synced thing: its kind, its name, its look (sprites.ts builds it, WorldScene.ts draws it). */
import type { Look } from "./looks.ts";

export interface Sprite {
  kind: string;
  label: string;
  /** How it is drawn (client/src/art). */
  look: Look;
  depleted?: boolean;
  health?: number;
  maxHealth?: number;
}
