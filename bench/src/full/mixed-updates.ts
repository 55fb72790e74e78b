// A mixed stream of session updates like a busy turn: 70% agent_message_chunk, 12%
// tool_call_update (20 tool calls moving through their statuses), 10% tool_call_content_chunk,
// 8% terminal_output_chunk (base64 bytes). Shared by the decode and client-store cases.
const TEXT = "Chunk of a streamed answer, with some ordinary prose in it.";
const STATUSES = ["pending", "in_progress", "completed"] as const;
const BYTES_B64 = Buffer.from("total 42\ndrwxr-xr-x  2 user user 4096 src\n").toString("base64");

export function mixedUpdate(i: number): Record<string, unknown> {
  const k = i % 50;
  if (k < 35)
    return {
      sessionUpdate: "agent_message_chunk",
      messageId: `m${i >> 10}`,
      content: { type: "text", text: `${i} ${TEXT}` },
    };
  if (k < 41) {
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: `t${i % 20}`,
      title: "Edit src/main.rs",
      kind: "edit",
      status: STATUSES[(i >> 4) % 3],
      locations: [{ path: "/w/src/main.rs", line: 12 }],
    };
  }
  if (k < 46) {
    return {
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: `t${i % 20}`,
      content: { type: "content", content: { type: "text", text: `${i} ${TEXT}` } },
    };
  }
  return { sessionUpdate: "terminal_output_chunk", terminalId: `x${i % 4}`, data: BYTES_B64 };
}
