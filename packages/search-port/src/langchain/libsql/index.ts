export { openLibsqlSearchPort, redactLibsqlUrl } from "./open-libsql-search-port.js";
export type { LibsqlSearchPort, LibsqlSearchPortOptions } from "./open-libsql-search-port.js";
