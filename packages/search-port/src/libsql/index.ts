export { openLibsqlSearchPort } from "./open-libsql-search-port.js";
export type { LibsqlSearchPort, LibsqlSearchPortOptions } from "./open-libsql-search-port.js";
