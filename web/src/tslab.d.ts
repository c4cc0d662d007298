// Hand-kept types of the emscripten facade (wasm/tslab_wasm.cpp); emscripten 3.1.6 cannot emit them.
declare module "@tslab/wasm" {
  /** Options the lab and the node tests pass to the factory (a subset of emscripten's Module). */
  export interface TslabModuleOptions {
    /** The .wasm bytes; Node has no fetch() for file paths, so tests pass them directly. */
    wasmBinary?: ArrayBuffer | Uint8Array;
    /** Where the browser fetches the .wasm from (the bundler's hashed URL). */
    locateFile?: (path: string, scriptDirectory: string) => string;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }

  /** The embind functions. Each takes and returns JSON text; bad input throws an Error "path: reason". */
  export interface TslabModule {
    /** tslab/scenario@1 JSON in, tslab/report@1 JSON out (byte-identical to `tslab report`). */
    report(scenarioJson: string): string;
    /** tslab/presets@1 JSON: { schema, models, clusters, gpus }, each a name → object map. */
    presets(): string;
    /** tslab/schedule@1: SPEC JSON { schedule, ranks, microbatches, vpp, costs, p2p_s, timeline } in,
     *  the simulated timeline out (byte-identical to `tslab schedule --format json`). */
    schedule(specJson: string): string;
    /** The same SPEC in, Chrome trace-event JSON out (`tslab schedule --format trace`), one tid per rank. */
    scheduleTrace(specJson: string): string;
  }

  const createTslab: (options?: TslabModuleOptions) => Promise<TslabModule>;
  export default createTslab;
}
