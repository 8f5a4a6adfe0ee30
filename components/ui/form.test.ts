import { describe, expect, it } from "vitest";
import { humanMessage } from "./form";

describe("humanMessage", () => {
  it("rewords zod's default messages", () => {
    expect(humanMessage("Too big: expected string to have <=20000 characters")).toBe("Too long: at most 20,000 characters.");
    expect(humanMessage("Too small: expected string to have >=1 characters")).toBe("Required.");
    expect(humanMessage("Too small: expected number to be >=0")).toBe("Must be at least 0.");
    expect(humanMessage("Invalid input: expected number, received NaN")).toBe("Enter a number.");
  });

  it("keeps messages written for people", () => {
    expect(humanMessage("A scope with this slug already exists.")).toBe("A scope with this slug already exists.");
  });
});
