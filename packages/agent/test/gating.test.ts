import { RequestError } from "@acp-kit/protocol/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { AgentDefinitionError, defineAgent } from "../src/index.js";
import { type Started, start } from "./support/harness.js";

let running: Started | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const noop = async () => {};

describe("unadvertised and unknown methods", () => {
  it("answers session methods with -32601 when capabilities.session is not advertised", async () => {
    running = start({ prompt: noop, capabilities: {} });
    await running.client.initialize();
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({ code: -32601 });
    await expect(running.client.request("session/list", {})).rejects.toMatchObject({ code: -32601 });
  });

  it("answers session/delete with -32601 unless session.delete is advertised", async () => {
    running = start({ prompt: noop });
    await running.client.initialize();
    await expect(running.client.request("session/delete", { sessionId: "s" })).rejects.toMatchObject({ code: -32601 });
  });

  it("answers auth methods with -32601 when no authMethods are advertised", async () => {
    running = start({ prompt: noop });
    await running.client.initialize();
    await expect(running.client.request("auth/login", { methodId: "x" })).rejects.toMatchObject({ code: -32601 });
    await expect(running.client.request("auth/logout", {})).rejects.toMatchObject({ code: -32601 });
  });

  it("answers removed v1 methods and unknown extensions with -32601", async () => {
    running = start({ prompt: noop });
    await running.client.initialize();
    await expect(running.client.request("session/load", { sessionId: "s", cwd: "/w" })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(running.client.request("_vendor/unknown", {})).rejects.toMatchObject({ code: -32601 });
  });

  it("routes declared extension methods", async () => {
    running = start({ prompt: noop, extMethods: { "_test/echo": (params) => ({ echoed: params }) } });
    await running.client.initialize();
    expect(await running.client.request("_test/echo", { a: 1 })).toEqual({ echoed: { a: 1 } });
  });

  it("answers invalid params with -32602 and the path", async () => {
    running = start({ prompt: noop });
    await running.client.initialize();
    await expect(running.client.request("session/new", { cwd: 42 })).rejects.toMatchObject({
      code: -32602,
      data: { path: "/cwd" },
    });
  });

  it("answers a failing hook with -32603 and no internals, and logs the failure", async () => {
    const logged: string[] = [];
    running = start({
      logger: { error: (message) => void logged.push(message) },
      prompt: noop,
      newSession() {
        throw new Error("secret database password in message");
      },
    });
    await running.client.initialize();
    const error = await running.client.request("session/new", { cwd: "/w" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603 });
    expect(JSON.stringify(running.client.wire)).not.toContain("secret");
    expect(logged).toContain("Handler for session/new failed");
  });
});

describe("authentication", () => {
  const authMethods = [
    { type: "agent" as const, methodId: "key", name: "API key" },
    { type: "terminal" as const, methodId: "tui", name: "Log in in a terminal" },
  ];

  it("gates session methods with -32000 until auth/login succeeds", async () => {
    const logins: string[] = [];
    running = start({ prompt: noop, authMethods, login: (id) => void logins.push(id) });
    await running.client.initialize();
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({ code: -32000 });
    await expect(running.client.request("session/list", {})).rejects.toMatchObject({ code: -32000 });
    await expect(
      running.client.request("session/prompt", { sessionId: "s", prompt: [{ type: "text", text: "x" }] }),
    ).rejects.toMatchObject({ code: -32000 });
    expect(await running.client.request("auth/login", { methodId: "key" })).toEqual({});
    expect(logins).toEqual(["key"]);
    expect(await running.client.newSession()).toMatch(/^sess_/);
  });

  it("refuses unknown and terminal-type methods on auth/login with -32602", async () => {
    running = start({ prompt: noop, authMethods, login: noop });
    await running.client.initialize();
    await expect(running.client.request("auth/login", { methodId: "nope" })).rejects.toMatchObject({ code: -32602 });
    await expect(running.client.request("auth/login", { methodId: "tui" })).rejects.toMatchObject({ code: -32602 });
  });

  it("keeps the gate closed when login throws", async () => {
    running = start({
      prompt: noop,
      authMethods,
      login() {
        throw RequestError.authRequired("bad key");
      },
    });
    await running.client.initialize();
    await expect(running.client.request("auth/login", { methodId: "key" })).rejects.toMatchObject({
      code: -32000,
      message: "bad key",
    });
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({ code: -32000 });
  });

  it("closes the gate again after auth/logout", async () => {
    let loggedOut = false;
    running = start({ prompt: noop, authMethods, login: noop, logout: () => void (loggedOut = true) });
    await running.client.initialize();
    await running.client.request("auth/login", { methodId: "key" });
    await running.client.newSession();
    expect(await running.client.request("auth/logout", {})).toEqual({});
    expect(loggedOut).toBe(true);
    await expect(running.client.request("session/new", { cwd: "/w" })).rejects.toMatchObject({ code: -32000 });
  });

  it("refuses to define an agent with authMethods but no login", () => {
    expect(() => defineAgent({ info: { name: "a", version: "1" }, prompt: noop, authMethods })).toThrow(
      AgentDefinitionError,
    );
  });
});
