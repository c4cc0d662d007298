// Leave-one-family-out cross-validation of the step model's fitted constants: each family of the
// training set (one paper's table) is predicted with the constants fitted on the other families.
#pragma once

#include <string>
#include <vector>

#include "tslab/validation_set.hpp"

namespace tslab {

// The constants fit_step_model finds on the training set without `family` (empty: on all rows).
struct family_fit {
    std::string family;
    double in_step = 0, gpu_speed_cv = 0;
};

// The refits stored in the core, one per training family, so that a report or `tslab accuracy`
// cross-validates without re-running the fit (~5 s each); test_validation_cv re-runs
// refit_without_each_family and fails when they drift.
const std::vector<family_fit>& stored_family_fits();
// nullptr when `family` is not a training family.
const family_fit* stored_family_fit(const std::string& family);

// The documented routine: fit_step_model on every row whose family is not the left-out one, once
// per family in order of first appearance.
std::vector<family_fit> refit_without_each_family(const std::vector<validation_case>& cases);

// The names of the constants that sit at a bound of the range the fit searches: a sign of a missing
// mechanism (a constant absorbing what the model lacks).
std::vector<std::string> constants_at_bound(double in_step, double gpu_speed_cv);

// The fit on every row and the refit without each family, as JSON (tslab/fit@1): the routine that
// produced the stored constants (`tslab accuracy --refit`).
std::string refit_json_text(const std::string& validation_text, const std::string& source);

// Parses a tslab/validation@1 document and predicts every row, in sample and with its family left
// out; input_error names the bad path.
accuracy_report predict_validation_set(const json& doc, const std::string& source);
accuracy_report predict_validation_text(const std::string& text, const std::string& source);

// Sets the row's cv_predicted / cv_error / fitted from its family's stored refit.
void cross_validate_row(validation_case& c);
// Means, maxima and per-family summaries of the rows (outside_mean rows listed, not counted).
void summarise_accuracy(accuracy_report& r);

}  // namespace tslab
