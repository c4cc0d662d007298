// Types of the accuracy JSON the lab reads (tslab accuracy [--published], tslab accuracy --scenario).

/** tslab/accuracy-class@1: the out-of-sample error on the published runs closest to a scenario's class, and the step-time range it implies. */
export interface AccuracyClass {
  schema: "tslab/accuracy-class@1";
  kind: string;
  gpu: string;
  dtype: string;
  context: string;
  /** "class" (all four keys), "dtype", "generation", "gpu", "kind", "any", or "none". */
  match: string;
  match_kind: string;
  match_gpu: string;
  match_dtype: string;
  match_context: string;
  runs: number;
  mean_abs_error: number;
  max_abs_error: number;
  max_row: string;
  step_time_s: number;
  time_low: number;
  time_high: number;
  step_time_low_s: number;
  step_time_high_s: number;
  note: string;
  table: string;
}

export interface AccuracyRow {
  id: string;
  source: string;
  paper: string;
  kind: string;
  gpu: string;
  dtype: string;
  context: string;
  gpus: number;
  layout: string;
  metric: string;
  published: number;
  predicted: number;
  error: number;
  family: string;
  /** Its family is in the training set: cv_error is the error with the constants fitted without it. */
  fitted: boolean;
  training_family: string;
  cv_predicted: number;
  cv_error: number;
  /** Non-empty: listed, not counted in the mean, for this reason. */
  outside_mean: string;
}

export interface AccuracyFamily {
  family: string;
  runs: number;
  fitted: boolean;
  mean_abs_error: number;
  max_abs_error: number;
  cv_mean_abs_error: number;
  cv_max_abs_error: number;
  refit_in_step: number;
  refit_gpu_speed_cv: number;
  at_bound: string[];
}

/** tslab/accuracy@1 */
export interface Accuracy {
  schema: "tslab/accuracy@1";
  source: string;
  rows: AccuracyRow[];
  counted: number;
  mean_abs_error: number;
  max_abs_error: number;
  max_row: string;
  cv_mean_abs_error: number;
  cv_max_abs_error: number;
  cv_max_row: string;
  fit: { routine: string; in_step: number; in_step_range: string; gpu_speed_cv: number; gpu_speed_cv_range: string; at_bound: string[] };
  families: AccuracyFamily[];
}
