import { describe, expect, it } from "vitest";
import { nodeInDirection, nodeInTabOrder, readingOrder } from "./graph-keyboard";

//   a(0,0)     b(100,0)
//   c(0,100)   d(100,90)   e(300,100)
const nodes = [
  { id: "a", x: 0, y: 0 },
  { id: "b", x: 100, y: 0 },
  { id: "c", x: 0, y: 100 },
  { id: "d", x: 100, y: 90 },
  { id: "e", x: 300, y: 100 },
];

describe("graph keyboard navigation", () => {
  it("moves to the nearest node in the arrow's direction", () => {
    expect(nodeInDirection(nodes, "a", "ArrowRight")).toBe("b");
    expect(nodeInDirection(nodes, "a", "ArrowDown")).toBe("c");
    expect(nodeInDirection(nodes, "c", "ArrowRight")).toBe("d");
    expect(nodeInDirection(nodes, "d", "ArrowRight")).toBe("e");
    expect(nodeInDirection(nodes, "d", "ArrowUp")).toBe("b");
  });

  it("stays put at the edge and starts from the first node with nothing selected", () => {
    expect(nodeInDirection(nodes, "a", "ArrowLeft")).toBeNull();
    expect(nodeInDirection(nodes, "e", "ArrowRight")).toBeNull();
    expect(nodeInDirection(nodes, null, "ArrowDown")).toBe("a");
    expect(nodeInDirection([], null, "ArrowDown")).toBeNull();
  });

  it("tabs in reading order and lets focus leave at either end", () => {
    // d sits 10 px higher than c but in the same 40 px row, so c (left) comes first.
    expect(readingOrder(nodes).map((n) => n.id)).toEqual(["a", "b", "c", "d", "e"]);
    expect(nodeInTabOrder(nodes, null, false)).toBe("a");
    expect(nodeInTabOrder(nodes, null, true)).toBe("e");
    expect(nodeInTabOrder(nodes, "b", false)).toBe("c");
    expect(nodeInTabOrder(nodes, "c", true)).toBe("b");
    expect(nodeInTabOrder(nodes, "e", false)).toBeNull();
    expect(nodeInTabOrder(nodes, "a", true)).toBeNull();
  });
});
