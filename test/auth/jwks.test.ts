import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { JwksClient, JWKS_TTL_MS, REFETCH_COOLDOWN_MS } from "../../src/auth/jwks.ts";

describe("the JWKS client", () => {
  let server: http.Server;
  let url: string;
  let published: Record<string, unknown>[];
  let fetches = 0;
  const jwk = (kid: string) => ({ ...generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" }), kid, use: "sig" });
  before(async () => {
    server = http.createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("picks up a rotated key after the cooldown, refetches on expiry, and no more often", async () => {
    let now = 1_000_000;
    published = [jwk("k1")];
    fetches = 0;
    const client = new JwksClient(url, () => now);
    assert.ok(await client.key("k1"));
    assert.equal(fetches, 1);
    published = [jwk("k1"), jwk("k2")];
    assert.equal(await client.key("k2"), undefined, "within the cooldown an unknown id does not refetch");
    assert.equal(fetches, 1);
    now += REFETCH_COOLDOWN_MS + 1;
    assert.ok(await client.key("k2"), "after the cooldown the new key is fetched");
    assert.equal(fetches, 2);
    await client.key("k1");
    assert.equal(fetches, 2, "known keys are served from the cache");
    now += JWKS_TTL_MS + 1;
    await client.key("k1");
    assert.equal(fetches, 3, "the set is refreshed when stale");
  });

  it("skips keys that are not for signatures", async () => {
    published = [{ ...jwk("enc1"), use: "enc" }];
    const client = new JwksClient(url);
    assert.equal(await client.key("enc1"), undefined);
  });
});
