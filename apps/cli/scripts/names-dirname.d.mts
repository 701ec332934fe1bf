/** Whether `source` (the module at `path`) names `__dirname` or `__filename` outside its comments. */
export function namesDirname(source: string, path: string): boolean;
