// `@lookup-knowledge/agent-tool/http`: the Host and Origin policy every HTTP server of
// lookup-knowledge applies (the MCP server, the inspector), against DNS rebinding and pages of
// other sites. Node only (it reads this machine's addresses); it loads no store and no LangChain.
export { createHostOriginGuard } from "./http/create-host-origin-guard.js";
export type { HostOriginGuard, HostOriginGuardOptions, HostOriginHeaders, HostOriginVerdict } from "./http/create-host-origin-guard.js";
export { isLoopbackHost } from "./http/is-loopback-host.js";
