/**
 * The tests' reader of the Prometheus text format (test/support/prometheus.ts) refuses what
 * Prometheus would refuse, so that "/metrics parses" means something.
 */
import assert from "node:assert/strict";
import { parsePrometheus, valueOf } from "../support/prometheus.ts";

const HISTOGRAM = (buckets: [string, number][], count: number) =>
  [
    "# HELP h_seconds A histogram",
    "# TYPE h_seconds histogram",
    ...buckets.map(([le, v]) => `h_seconds_bucket{le="${le}"} ${v}`),
    "h_seconds_sum 1.5",
    `h_seconds_count ${count}`,
    "",
  ].join("\n");

describe("the Prometheus text reader of the tests", () => {
  it("reads families, types, help, escaped label values and special values", () => {
    const m = parsePrometheus(
      [
        '# HELP c_total Things "counted"\\n twice',
        "# TYPE c_total counter",
        'c_total{a="x\\"y\\\\z",b="line\\nbreak"} 3',
        "# TYPE g gauge",
        "g Nan",
        "# TYPE g2 gauge",
        "g2 +Inf",
        "",
      ].join("\n"),
    );
    assert.equal(m.get("c_total")!.type, "counter");
    assert.equal(m.get("c_total")!.help, 'Things "counted"\n twice');
    assert.deepEqual(m.get("c_total")!.samples[0]!.labels, { a: 'x"y\\z', b: "line\nbreak" });
    assert.ok(Number.isNaN(valueOf(m, "g")));
    assert.equal(valueOf(m, "g2"), Infinity);
    assert.equal(
      valueOf(
        parsePrometheus(
          HISTOGRAM(
            [
              ["0.1", 1],
              ["+Inf", 2],
            ],
            2,
          ),
        ),
        "h_seconds_count",
      ),
      2,
    );
  });

  it("refuses what is not the exposition format", () => {
    const bad: [string, RegExp][] = [
      ["# TYPE c counter\nc 1", /end with a newline/],
      ["# TYPE c counter\nd 1\n", /outside its family/],
      ["c 1\n", /outside its family/],
      ["# TYPE c counter\nc one\n", /not a sample/],
      ["# TYPE c counter\nc{a=x} 1\n", /bad labels/],
      ['# TYPE c counter\nc{a="x",a="y"} 1\n', /label a twice/],
      ["# TYPE c counter\nc 1\n# HELP c late\n", /after its samples/],
      ["# TYPE c countr\n", /unknown type/],
      ["# TYPE c counter\nc 1\n# TYPE d gauge\nd 1\n# TYPE c counter\n", /declared again/],
      [
        HISTOGRAM(
          [
            ["0.1", 2],
            ["+Inf", 1],
          ],
          1,
        ),
        /not cumulative/,
      ],
      [
        HISTOGRAM(
          [
            ["0.1", 1],
            ["+Inf", 2],
          ],
          3,
        ),
        /\+Inf bucket must equal _count/,
      ],
      [
        HISTOGRAM(
          [
            ["0.1", 1],
            ["1", 2],
          ],
          2,
        ),
        /\+Inf bucket must equal _count/,
      ],
    ];
    for (const [text, error] of bad) assert.throws(() => parsePrometheus(text), error, JSON.stringify(text));
  });
});
