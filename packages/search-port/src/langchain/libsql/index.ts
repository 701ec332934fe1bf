export { openLibsqlSearchPort, redactLibsqlUrl } from "./open-libsql-search-port.js";
export type { LibsqlSearchPort } from "./open-libsql-search-port.js";
export type { LibsqlSearchPortOptions } from "./libsql-search-port-options.js";
