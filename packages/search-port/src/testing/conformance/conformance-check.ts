import type { ConformanceTestApi, PortConformanceCheck, PortConformanceOptions } from "../port-conformance-subject.js";

/** Registers one check of a named group: as a test, or as a skipped one when `options.skip` names its group. */
export type ConformanceCheck = (kind: PortConformanceCheck, title: string, body: () => Promise<void>) => void;

/** The `check` of the suite: `api.it`, or `api.it.skip` with the reason in the title for a skipped group (left out when the framework has no `skip`). */
export function conformanceCheck(api: ConformanceTestApi, skipped: NonNullable<PortConformanceOptions["skip"]>): ConformanceCheck {
  return (kind, title, body) => {
    const reason = skipped[kind];
    if (reason === undefined) {
      api.it(title, body);
      return;
    }
    const skip = (api.it as { skip?: (name: string, body: () => Promise<void>) => unknown }).skip;
    if (typeof skip === "function") skip(`${title} (skipped: ${reason})`, async () => {});
  };
}
