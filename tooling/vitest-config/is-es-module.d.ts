/** Whether the file at `url` is an ES module as Node decides it (`.mjs`, not `.cjs`, or its nearest package.json's `"type": "module"`). */
export declare function isEsModule(url: string): boolean;
