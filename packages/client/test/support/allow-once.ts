// Client handlers that allow every permission request once (no agent import, so a browser
// page can bundle it).

export const allowOnce = {
  requestPermission: (request: { options: readonly { kind: string; optionId: string }[] }) => ({
    outcome: {
      outcome: "selected" as const,
      optionId: (request.options.find((o) => o.kind === "allow_once") ?? request.options[0])?.optionId ?? "",
    },
  }),
};
