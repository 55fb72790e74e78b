import { describe, expect, it } from "vitest";
import { findWindowsExecutable, quoteForCmd, resolveCommand } from "./resolve-command.js";

const files = (...paths: string[]) => {
  const set = new Set(paths.map((p) => p.toLowerCase()));
  return (file: string): boolean => set.has(file.toLowerCase());
};

describe("resolveCommand", () => {
  it("returns the command untouched on POSIX (execvp searches PATH)", () => {
    expect(resolveCommand("npx", ["-y", "agent"], { platform: "linux", isFile: () => false })).toEqual({
      file: "npx",
      args: ["-y", "agent"],
    });
  });

  describe("on win32", () => {
    const env = {
      Path: 'C:\\Windows\\System32;"C:\\Program Files\\nodejs";C:\\Users\\me\\bin',
      PATHEXT: ".COM;.EXE;.BAT;.CMD",
    };
    const cwd = "C:\\work";

    it("finds a bare name in PATH through PATHEXT, in PATHEXT order", () => {
      const isFile = files("C:\\Program Files\\nodejs\\node.exe", "C:\\Users\\me\\bin\\node.cmd");
      expect(resolveCommand("node", ["a.js"], { platform: "win32", env, cwd, isFile })).toEqual({
        file: "C:\\Program Files\\nodejs\\node.exe",
        args: ["a.js"],
      });
    });

    it("prefers the current directory, like cmd.exe", () => {
      const isFile = files("C:\\work\\agent.exe", "C:\\Users\\me\\bin\\agent.exe");
      expect(findWindowsExecutable("agent", env, cwd, isFile)).toBe("C:\\work\\agent.exe");
    });

    it("reads PATH and PATHEXT case-insensitively and falls back to the default PATHEXT", () => {
      const isFile = files("C:\\Users\\me\\bin\\tool.bat");
      expect(findWindowsExecutable("tool", { pAtH: "C:\\Users\\me\\bin" }, cwd, isFile)).toBe(
        "C:\\Users\\me\\bin\\tool.bat",
      );
    });

    it("uses a name that already has an extension as is, and resolves relative paths against cwd", () => {
      expect(findWindowsExecutable("agent.exe", env, cwd, files("C:\\Users\\me\\bin\\agent.exe"))).toBe(
        "C:\\Users\\me\\bin\\agent.exe",
      );
      expect(findWindowsExecutable(".\\bin\\agent", env, cwd, files("C:\\work\\bin\\agent.cmd"))).toBe(
        "C:\\work\\bin\\agent.cmd",
      );
    });

    it("leaves an unknown command alone so that spawn reports ENOENT", () => {
      expect(resolveCommand("nope", [], { platform: "win32", env, cwd, isFile: () => false })).toEqual({
        file: "nope",
        args: [],
      });
    });

    it("runs a .cmd shim through cmd.exe with every argument quoted and escaped", () => {
      const isFile = files("C:\\Program Files\\nodejs\\npx.cmd");
      const resolved = resolveCommand("npx", ["-y", "@scope/agent", "a&b", 'say "hi"', "100%"], {
        platform: "win32",
        env: { ...env, ComSpec: "C:\\Windows\\System32\\cmd.exe" },
        cwd,
        isFile,
      });
      expect(resolved.file).toBe("C:\\Windows\\System32\\cmd.exe");
      expect(resolved.windowsVerbatimArguments).toBe(true);
      expect(resolved.args.slice(0, 3)).toEqual(["/d", "/s", "/c"]);
      expect(resolved.args[3]).toBe(
        '"^"C:\\Program Files\\nodejs\\npx.cmd^" ^"-y^" ^"@scope/agent^" ^"a^&b^" ^"say \\^"hi\\^"^" ^"100^%^""',
      );
    });
  });
});

describe("quoteForCmd", () => {
  it("doubles backslashes before quotes and at the end, and escapes metacharacters", () => {
    expect(quoteForCmd("plain")).toBe('^"plain^"');
    expect(quoteForCmd("C:\\dir\\")).toBe('^"C:\\dir\\\\^"');
    expect(quoteForCmd('a\\"b')).toBe('^"a\\\\\\^"b^"');
    expect(quoteForCmd("|<>()!^")).toBe('^"^|^<^>^(^)^!^^^"');
  });
});
