import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { JwksClient, JWKS_MAX_STALE_MS, JWKS_RETRY_MAX_MS, JWKS_RETRY_MIN_MS, JWKS_TTL_MS, REFETCH_COOLDOWN_MS } from "../../src/auth/jwks.ts";

describe("the JWKS client", () => {
  let server: http.Server;
  let url: string;
  let published: Record<string, unknown>[];
  let fetches = 0;
  /** The provider is down: every fetch gets a 503. */
  let down = false;
  const jwk = (kid: string) => ({ ...generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" }), kid, use: "sig" });
  before(async () => {
    server = http.createServer((_req, res) => {
      fetches++;
      if (down) {
        res.writeHead(503).end();
        return;
      }
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

  it("keeps using the last good keys while the provider is down, retrying with a growing delay, up to the stale limit", async () => {
    let now = 5_000_000;
    published = [jwk("k1")];
    fetches = 0;
    down = false;
    const client = new JwksClient(url, () => now);
    try {
      assert.ok(await client.key("k1"));
      down = true;
      now += JWKS_TTL_MS + 1;
      assert.ok(await client.key("k1"), "a failed refresh still serves the cached key");
      assert.equal(fetches, 2);
      assert.ok(await client.key("k1"));
      await assert.rejects(client.key("k9"), /not in the last key set/, "an id the stale keys lack may be a rotated key: unavailable, not unknown");
      assert.equal(fetches, 2, "no refetch before the retry delay");
      now += JWKS_RETRY_MIN_MS;
      assert.ok(await client.key("k1"));
      assert.equal(fetches, 3, "retried once the delay passed");
      now += JWKS_RETRY_MIN_MS;
      await client.key("k1");
      assert.equal(fetches, 3, "the delay doubled after the second failure");
      now += JWKS_RETRY_MIN_MS;
      await client.key("k1");
      assert.equal(fetches, 4);
      now += JWKS_MAX_STALE_MS;
      await assert.rejects(client.key("k1"), /503/, "past the stale limit the keys are no longer used");
      await assert.rejects(client.key("k1"), /could not be fetched; next attempt in \d+ s/);
      assert.equal(fetches, 5, "and the failing provider is not asked on every token");
      down = false;
      now += JWKS_RETRY_MAX_MS;
      assert.ok(await client.key("k1"), "back to normal once the provider answers");
      assert.equal(fetches, 6);
      now += JWKS_RETRY_MIN_MS;
      await client.key("k1");
      assert.equal(fetches, 6, "a good fetch clears the back-off");
    } finally {
      down = false;
    }
  });

  it("without any keys yet, fails at once while the provider is down, and retries after the delay", async () => {
    let now = 9_000_000;
    fetches = 0;
    down = true;
    const client = new JwksClient(url, () => now);
    try {
      await assert.rejects(client.key("k1"), /503/);
      await assert.rejects(client.key("k1"), /next attempt in 1 s/);
      assert.equal(fetches, 1);
      down = false;
      published = [jwk("k1")];
      now += JWKS_RETRY_MIN_MS;
      assert.ok(await client.key("k1"));
      assert.equal(fetches, 2);
    } finally {
      down = false;
    }
  });

  it("skips keys that are not for signatures", async () => {
    published = [{ ...jwk("enc1"), use: "enc" }];
    const client = new JwksClient(url);
    assert.equal(await client.key("enc1"), undefined);
  });
});
