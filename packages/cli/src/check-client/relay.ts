#!/usr/bin/env node
// The process a checked client starts as its agent: it relays its stdio to the checker (which
// plays the scripted agent) over a local TCP connection authenticated by a one-time token.
//   relay.js 127.0.0.1:PORT TOKEN
import { connect } from "node:net";

const [address = "", token = ""] = process.argv.slice(2);
const at = address.lastIndexOf(":");
const socket = connect({ host: address.slice(0, at), port: Number(address.slice(at + 1)) });
socket.on("connect", () => {
  socket.write(`${token}\n`);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on("error", (error) => {
  process.stderr.write(`acp-kit relay: ${error.message}\n`);
  process.exit(1);
});
socket.on("close", () => process.exit(0));
process.stdin.on("end", () => socket.end());
