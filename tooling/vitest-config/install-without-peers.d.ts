/**
 * Installs the built package at `packageFolder` into `root/node_modules` as a user who left
 * out its optional peers gets it: the manifest and `copied` folders copied, only `linked`
 * dependencies linked to where the workspace has them. Returns the folder to run from.
 */
export declare function installWithoutPeers(options: { root: string; packageFolder: string; copied: string[]; linked: string[] }): string;
