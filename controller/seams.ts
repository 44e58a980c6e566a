import type { ProvenanceCount } from "#controller/guard/provenance";
import { beforeDispatchFaults, type Fault, faultyFetch, type OrderWriter } from "#controller/http/faults";
import { type ServiceOptions, ServiceClient } from "#controller/http/service-client";
import type { Intent } from "#controller/intents/intent";
import { noteFault } from "#controller/state/run";

/**
 * What only tests and the evaluation may set on a controller: injected faults, a hook between persisting an intent
 * and sending it, and the provenance control switched (partly) off to measure what it prevents. They are not in
 * `ControllerOptions`: an application reaches them only through `order-tools/controller/testing`
 * (`withTestSeams`), so production code cannot set one by accident, and a reader of the options sees only what
 * an application configures.
 */
export interface TestSeams {
  /** Faults for tests and evaluation (lost responses, lost status lookups, 503s, order changes in between). */
  faults?: readonly Fault[];
  /** Needed by set_before_dispatch faults: writes the stored order directly. */
  orderWriter?: OrderWriter;
  /** Runs after an intent is persisted and before its request is sent. */
  beforeDispatch?: (intent: Intent) => Promise<void>;
  /**
   * The provenance control, on unless this says otherwise: `false` switches it off, `{ skip: [...] }` some of its
   * counts — for measuring what it prevents (the evaluation's defects), never for production.
   */
  provenance?: false | { skip: readonly ProvenanceCount[] };
}

const seamsKey = Symbol("order-tools controller test seams");

/** The options with these test seams added to any they carry already (a seam given here replaces the same one). */
export function withTestSeams<Options extends object>(options: Options, seams: TestSeams): Options {
  return { ...options, [seamsKey]: { ...testSeamsOf(options), ...seams } };
}

/** The test seams an options object carries (none: production). */
export function testSeamsOf(options: object): TestSeams {
  return (options as { [seamsKey]?: TestSeams })[seamsKey] ?? {};
}

/** The service client; with a test's HTTP faults, over a fetch that injects them where the network is. */
export function serviceClient(service: ServiceOptions, faults: TestSeams["faults"]): ServiceClient {
  const fetch = service.fetch ?? globalThis.fetch;
  return new ServiceClient({ ...service, fetch: faults?.length ? faultyFetch(fetch, faults, noteFault) : fetch });
}

/** What runs between persisting an intent and sending it: a test's faults on the stored order, then its hook. */
export function sendHook(seams: TestSeams): (intent: Intent) => Promise<void> {
  const faultHook = beforeDispatchFaults(seams.faults ?? [], seams.orderWriter);
  return async (intent) => {
    await faultHook(intent, noteFault);
    await seams.beforeDispatch?.(intent);
  };
}
