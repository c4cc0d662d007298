// Types of the accuracy JSON the lab reads (tslab accuracy, tslab accuracy --scenario).

/** tslab/accuracy-class@1: the published runs closest to a scenario's class and the model's error on them. */
export interface AccuracyClass {
  schema: "tslab/accuracy-class@1";
  kind: string;
  gpu: string;
  /** "class" (same kind and GPU generation), "generation", "kind", "any", or "none". */
  match: string;
  match_kind: string;
  match_gpu: string;
  runs: number;
  mean_abs_error: number;
  max_abs_error: number;
  max_row: string;
  note: string;
  table: string;
}

export interface AccuracyRow {
  id: string;
  source: string;
  paper: string;
  kind: string;
  gpu: string;
  gpus: number;
  layout: string;
  metric: string;
  published: number;
  predicted: number;
  error: number;
}

/** tslab/accuracy@1 */
export interface Accuracy {
  schema: "tslab/accuracy@1";
  source: string;
  rows: AccuracyRow[];
  mean_abs_error: number;
  max_abs_error: number;
  max_row: string;
}
