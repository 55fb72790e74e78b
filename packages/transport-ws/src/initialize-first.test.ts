import { describe, expect, it } from "vitest";
import { checkFirstMessage } from "./initialize-first.js";

describe("checkFirstMessage", () => {
  it("accepts an initialize request with a string or number id", () => {
    expect(checkFirstMessage('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')).toBeUndefined();
    expect(checkFirstMessage('{"jsonrpc":"2.0","id":"a","method":"initialize"}')).toBeUndefined();
  });

  it("refuses anything else", () => {
    expect(checkFirstMessage('{"jsonrpc":"2.0","id":1,"method":"session/new"}')).toBe(
      "First message must be initialize",
    );
    expect(checkFirstMessage('{"jsonrpc":"2.0","method":"initialize"}')).toBe("Initialize request must include an id");
    expect(checkFirstMessage('{"jsonrpc":"2.0","id":null,"method":"initialize"}')).toBe(
      "Initialize request must include an id",
    );
    expect(checkFirstMessage("[]")).toMatch(/request object/);
    expect(checkFirstMessage("42")).toMatch(/request object/);
    expect(checkFirstMessage("{oops")).toMatch(/invalid JSON/);
  });
});
