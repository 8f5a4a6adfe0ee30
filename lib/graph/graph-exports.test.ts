import { describe, expect, it } from "vitest";
import type { GraphElements } from "./cytoscape-elements";
import { csvCell, edgesCsv, toGraphML } from "./graph-exports";

const elements: GraphElements = {
  nodes: [
    { group: "nodes", data: { id: "b1", kind: "belief", label: `<b>"A" & B</b>`, scope: "s", credence: 0.7, tension: 0.13, status: "supported", topic: "t" } },
    { group: "nodes", data: { id: "e1", kind: "evidence", label: "doc", scope: "s", evidenceKind: "document", retracted: false } },
  ],
  edges: [{ group: "edges", data: { id: "SUPPORTS:e1>b1#1", source: "e1", target: "b1", type: "SUPPORTS", live: true, seq: 1, weight: 0.5 } }],
};

describe("toGraphML", () => {
  it("writes typed keys, escaped texts and every node and edge", () => {
    const out = toGraphML(elements, new Map([["b1", "full <text> & more"]]));
    expect(out).toContain('<key id="credence" for="node" attr.name="credence" attr.type="double"/>');
    expect(out).toContain('<data key="label">&lt;b&gt;&quot;A&quot; &amp; B&lt;/b&gt;</data>');
    expect(out).toContain('<data key="text">full &lt;text&gt; &amp; more</data>');
    expect(out).toContain('<edge id="SUPPORTS:e1&gt;b1#1" source="e1" target="b1">');
    expect(out).toContain('<data key="e_weight">0.5</data>');
    expect(out.match(/<node /g)).toHaveLength(2);
    expect(out).not.toContain("<b>");
  });
});

describe("CSV", () => {
  it("quotes commas, quotes and newlines, and neutralises formulas", () => {
    expect(csvCell('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell(-0.5)).toBe("-0.5");
    expect(csvCell(null)).toBe("");
  });

  it("lists edges with a header", () => {
    expect(edgesCsv(elements)).toBe("source,target,type,live,weight,seq\r\ne1,b1,SUPPORTS,true,0.5,1\r\n");
  });
});
