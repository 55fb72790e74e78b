import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LiveView } from "./live-view.js";

function sink(): { out: Writable; text: () => string } {
  let text = "";
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { out, text: () => text };
}

describe("LiveView", () => {
  it("writes only permanent lines when not live", () => {
    const { out, text } = sink();
    const view = new LiveView(out, { live: false });
    view.setLive(["spinner"]);
    view.print(["a", "b"]);
    expect(text()).toBe("a\nb\n");
  });

  it("erases and redraws the live region around permanent lines", async () => {
    const { out, text } = sink();
    const view = new LiveView(out, { live: true, columns: () => 10, rows: () => 10 });
    view.setLive(["one", "two"]);
    view.print(["done"]);
    view.setLive(["two"]);
    view.clearLive();
    // Region of 2 rows: back to column 0, one row up, clear to the end of the screen.
    expect(text()).toBe(
      "one\ntwo" + "\r\u001b[1A\u001b[J" + "done\none\ntwo" + "\r\u001b[1A\u001b[J" + "two" + "\r\u001b[J",
    );
  });

  it("clips the region to the screen height, keeping its tail", () => {
    const { out, text } = sink();
    const view = new LiveView(out, { live: true, columns: () => 4, rows: () => 3 });
    view.setLive(["aaaaaa", "b", "c"]);
    expect(text()).toBe("b\nc");
  });
});
