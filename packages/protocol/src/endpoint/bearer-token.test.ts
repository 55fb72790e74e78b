import { describe, expect, it } from "vitest";
import { createBearerTokenCheck, readBearerToken } from "./bearer-token.js";

describe("readBearerToken", () => {
  it.each([
    ["Bearer abc", "abc"],
    ["bearer   abc  ", "abc"],
    ["Basic abc", undefined],
    ["Bearer", undefined],
    ["Bearer a b", undefined],
    [undefined, undefined],
    [null, undefined],
  ])("%s -> %s", (header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });
});

describe("createBearerTokenCheck", () => {
  it("accepts any of the tokens and refuses others with a 401 challenge", async () => {
    const check = createBearerTokenCheck(["first", "second"], { realm: "r" });
    expect(await check("first")).toBe(true);
    expect(await check("second")).toBe(true);
    expect(await check("firs")).toEqual({
      ok: false,
      status: 401,
      message: "Invalid bearer token",
      headers: { "WWW-Authenticate": 'Bearer realm="r", error="invalid_token"' },
    });
    expect(await check(undefined)).toEqual({
      ok: false,
      status: 401,
      message: "Missing bearer token",
      headers: { "WWW-Authenticate": 'Bearer realm="r"' },
    });
  });

  it("one token as a string; realm `acp` by default", async () => {
    const check = createBearerTokenCheck("s3cret");
    expect(await check("s3cret")).toBe(true);
    expect(await check("s3cret ")).toMatchObject({
      headers: { "WWW-Authenticate": 'Bearer realm="acp", error="invalid_token"' },
    });
  });

  it("needs at least one token, named by its caller", () => {
    expect(() => createBearerTokenCheck([])).toThrow("createBearerTokenCheck needs at least one token");
    expect(() => createBearerTokenCheck([], { name: "bearerToken" })).toThrow("bearerToken needs at least one token");
  });
});
