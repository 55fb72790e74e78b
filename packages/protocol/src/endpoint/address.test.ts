import { describe, expect, it } from "vitest";
import { endpointUrl, tcpAddressOf } from "./address.js";

describe("endpoint addresses", () => {
  it.each([
    [{ address: "127.0.0.1", family: "IPv4", port: 8080 }, "http://127.0.0.1:8080/acp"],
    [{ address: "::1", family: "IPv6", port: 443 }, "http://[::1]:443/acp"],
  ])("%o -> %s", (address, url) => {
    expect(endpointUrl("http", tcpAddressOf(address, "The server"), "/acp")).toBe(url);
  });

  it("a server not listening on TCP (not yet, or on a pipe) throws", () => {
    expect(() => tcpAddressOf(null, "The ACP HTTP server")).toThrow(
      "The ACP HTTP server is not listening on a TCP port",
    );
    expect(() => tcpAddressOf("/tmp/acp.sock", "The ACP HTTP server")).toThrow(/not listening on a TCP port/);
  });
});
