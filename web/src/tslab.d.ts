// Hand-kept types of the emscripten facade (wasm/tslab_wasm.cpp); emscripten 3.1.6 cannot emit them.
// Matched by path suffix, so the lab's relative import ("./wasm/tslab.mjs") and a test's both get these types.
declare module "*/wasm/tslab.mjs" {
  /** Options the lab and the node tests pass to the factory (a subset of emscripten's Module). */
  export interface TslabModuleOptions {
    /** The .wasm bytes; Node has no fetch() for file paths, so tests pass them directly. */
    wasmBinary?: ArrayBuffer | Uint8Array;
    /** Where the browser fetches the .wasm from (the bundler's hashed URL). */
    locateFile?: (path: string, scriptDirectory: string) => string;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }

  /**
   * What every entry point returns: the JSON text, or the error "path: reason". Nothing throws across
   * the wasm boundary (a throw there would leak the wasm stack); web/src/client.ts turns !ok into an Error.
   */
  export interface Outcome {
    ok: boolean;
    /** The result's JSON text when ok, else "". */
    value: string;
    /** "path: reason" when not ok ("$" is the whole document), else "". */
    error: string;
    /** The reason of an input error as {"id", "args"} JSON (a core message id, `tslab messages`), else "". */
    error_msg: string;
    /** The input error's JSON path ("" for any other error): the UI never parses `error`. */
    error_path: string;
    /** Its reason alone (the whole text for any other error). */
    error_reason: string;
  }

  /** The embind functions. Each takes JSON text and returns an Outcome holding JSON text. */
  export interface TslabModule {
    /** tslab/scenario@1 JSON in, tslab/report@1 JSON out (byte-identical to `tslab report`). */
    report(scenarioJson: string): Outcome;
    /** tslab/accuracy-class@1: the out-of-sample error on the published runs closest to the scenario's class and the step-time range it implies (tslab accuracy --scenario). */
    accuracyClass(scenarioJson: string): Outcome;
    /** tslab/accuracy@1: every published run of the embedded training set against the model (tslab accuracy). */
    accuracy(): Outcome;
    /** tslab/accuracy@1: the embedded published runs the model is validated on (tslab accuracy --published). */
    accuracyPublished(): Outcome;
    /** tslab/presets@1 JSON: { schema, models, clusters, gpus }, each a name → object map. */
    presets(): Outcome;
    /** tslab/messages@1: every core message id with its English template and parameters. */
    messages(): Outcome;
    /** tslab/collective@1: {op, bytes, ranks, algorithm?, link?, cluster?, ranks_per_node?, overlap?} in;
     *  time_s, alpha_s, beta_s, algbw_Bps, busbw_Bps, algorithm, candidates[] out (byte-identical to `tslab collective`). */
    collective(specJson: string): Outcome;
    /** tslab/mesh@1: {dp, tp, pp, ep, cp, order?, gpus_per_node?, nodes?, sp?, cp_method?, heads?, list_limit?} in;
     *  {order, world, nodes, gpus_per_node, groups[], warnings[], axes[], truncated} out (byte-identical to `tslab mesh`). */
    mesh(specJson: string): Outcome;
    /** tslab/calibration@1 JSON in, tslab/calibration-summary@1 JSON out (source, backend, ranks, nodes,
     *  complete, devices, probes, replaces[]); a bad profile throws Error "path: reason". */
    validateProfile(profileJson: string): Outcome;
    /** Predicted vs measured per probe (tslab/validation@1, as `tslab validate --format json`); scenarioJson ""
     *  predicts by the profile's own fits, else by that scenario's cluster. */
    validation(profileJson: string, scenarioJson: string): Outcome;
    /** tslab/schedule@1: SPEC JSON { schedule, ranks, microbatches, vpp, costs, p2p_s, timeline } in,
     *  the simulated timeline out (byte-identical to `tslab schedule --format json`). */
    schedule(specJson: string): Outcome;
    /** The same SPEC in, Chrome trace-event JSON out (`tslab schedule --format trace`), one tid per rank. */
    scheduleTrace(specJson: string): Outcome;
    /** tslab/schedule-work@1: the ops a SPEC lists and generates, before any work, and whether it fits a frame. */
    scheduleWork(specJson: string): Outcome;
    /**
     * The planner in one call: scenario JSON and options JSON ({ top?, gpus?, max_candidates?,
     * simulate_ops?, max_seconds?, fixed? }, "" for defaults) in, tslab/plan@1 JSON out (as `tslab plan --format json`).
     */
    plan(scenarioJson: string, optionsJson: string): Outcome;
    /** Starts a sliced search (one per module instance); returns PlanProgress JSON. */
    planStart(scenarioJson: string, optionsJson: string): Outcome;
    /** Runs at least `budget` more combinations; returns PlanProgress JSON. */
    planStep(budget: number): Outcome;
    /** tslab/plan@1 JSON of the search so far (partial until done). */
    planResult(): Outcome;
    /** Drops the search; later planStep/planResult fail. */
    planCancel(): void;
    /** Starts part `part` of `parts` of the search (one per Worker); planStep runs it; PlanProgress JSON. */
    planPartStart(scenarioJson: string, optionsJson: string, part: number, parts: number): Outcome;
    /** tslab/plan-part@1 JSON of this module's part (once planStep says done). */
    planPartState(): Outcome;
    /** The parts' states (a JSON array in part order) merged: tslab/plan@1 JSON as one search gives. */
    planMerge(scenarioJson: string, optionsJson: string, partsJson: string): Outcome;
    /** Parses and checks a tslab/calibration@1 profile once and keeps it under `name` in the module;
     *  a scenario's cluster.calibration = name then uses it. Value: tslab/calibration-summary@1. */
    loadProfile(name: string, profileJson: string): Outcome;
    /** Forgets a profile kept by loadProfile. */
    dropProfile(name: string): void;
    /** validation() for a profile kept by loadProfile (no profile text is sent again). */
    loadedValidation(name: string, scenarioJson: string): Outcome;
    /** tslab/rl@1: {scenario, rl?, gpus?} in; the checkpoint policy, goodput against GPU count and one RL
     *  iteration (train, reshard, rollout, reward) out (byte-identical to `tslab rl`). */
    rl(specJson: string): Outcome;
    /** tslab/scenario@1 in; tslab/context@1 out: Megatron SP and every CP method side by side, with the causal
     *  balance of the cp group (byte-identical to `tslab context`). */
    context(scenarioJson: string): Outcome;
    /** JSON { max_bytes, max_depth, max_keys }: the parser's limits on every JSON input. */
    inputLimits(): string;
    /** JSON { stack_pointer, heap_in_use, memory_bytes }, for leak tests. */
    memoryStats(): string;
  }

  /** What planStart/planStep return (parsed). */
  export interface PlanProgress {
    considered: number;
    evaluated: number;
    fitting: number;
    /** Fitting plans timed in full (the others provably change neither the top K nor the Pareto front). */
    timed: number;
    layouts_searched: number;
    layouts_total: number;
    done: boolean;
    capped: boolean;
  }

  const createTslab: (options?: TslabModuleOptions) => Promise<TslabModule>;
  export default createTslab;
}
