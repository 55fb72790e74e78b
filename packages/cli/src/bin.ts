#!/usr/bin/env node
import { main } from "./main.js";

const code = await main(process.argv.slice(2));
// Exit once stdout is flushed: a proxied editor may keep our stdin open after the work is done.
process.stdout.write("", () => process.exit(code));
