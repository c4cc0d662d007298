// Leave-one-family-out refits of the step model's constants, the rows' cross-validated errors and
// the per-family summaries of an accuracy report.
#include "tslab/validation_cv.hpp"

#include <algorithm>
#include <cmath>

#include "tslab/errors.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/validation_fit.hpp"

namespace tslab {

const std::vector<family_fit>& stored_family_fits() {
    // refit_without_each_family on tests/validation/training_set.json (tslab accuracy --refit);
    // test_validation_cv.cpp re-runs it.
    static const std::vector<family_fit> fits = {
        {"narayanan2021-t1", 0.815, max_gpu_speed_cv},
        {"megascale2024-t2", 0.813, max_gpu_speed_cv * 15 / 20},  // the 16th of the fit's 21 cv points
        {"nemotron4-15b-t2", 0.803, max_gpu_speed_cv},
    };
    return fits;
}

const family_fit* stored_family_fit(const std::string& family) {
    for (const auto& f : stored_family_fits())
        if (f.family == family) return &f;
    return nullptr;
}

namespace {

// The rows' families in order of first appearance.
template <class Rows, class Row>
std::vector<std::string> families_of(const Rows& rows, const Row& row) {
    std::vector<std::string> out;
    for (const auto& r : rows)
        if (std::find(out.begin(), out.end(), row(r).family) == out.end()) out.push_back(row(r).family);
    return out;
}

}  // namespace

std::vector<family_fit> refit_without_each_family(const std::vector<validation_case>& cases) {
    const std::vector<std::string> families = families_of(cases, [](const validation_case& c) -> const accuracy_row& { return c.row; });
    std::vector<family_fit> out;
    for (const auto& f : families) {
        std::vector<validation_case> rest;
        for (const auto& c : cases)
            if (c.row.family != f) rest.push_back(c);
        const step_model_fit fit = fit_step_model(rest);
        out.push_back({f, fit.in_step, fit.gpu_speed_cv});
    }
    return out;
}

std::vector<std::string> constants_at_bound(double in_step, double gpu_speed_cv) {
    std::vector<std::string> out;
    if (in_step <= min_in_step + 1e-9 || in_step >= max_in_step - 1e-9) out.push_back("cluster.gpu.gemm_efficiency.in_step");
    if (gpu_speed_cv >= max_gpu_speed_cv - 1e-12) out.push_back("cluster.gpu_speed_cv");
    return out;
}

void cross_validate_row(validation_case& c) {
    accuracy_row& a = c.row;
    const family_fit* f = stored_family_fit(a.training_family.empty() ? a.family : a.training_family);
    a.fitted = f != nullptr;
    if (!f) {
        a.cv_predicted = a.predicted, a.cv_error = a.error;
        return;
    }
    a.cv_predicted = predict_case(c, with_step_constants(c.input, f->in_step, f->gpu_speed_cv));
    a.cv_error = a.cv_predicted / a.published - 1;
}

namespace {

// A validation file's text as JSON; a parse error names the file.
json validation_doc(const std::string& text, const std::string& source) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        throw input_error(source, msg("input.not_json", {{"detail", e.what()}}));
    }
}

}  // namespace

std::string refit_json_text(const std::string& validation_text, const std::string& source) {
    const auto cases = parse_validation_cases(validation_doc(validation_text, source));
    const step_model_fit all = fit_step_model(cases);
    const auto refits = refit_without_each_family(cases);
    const auto write = [](json_writer& w, const std::string& family, double in_step, double cv) {
        w.begin_object();
        w.field("left_out", family).field("in_step", in_step).field("gpu_speed_cv", cv);
        w.key("at_bound").begin_array();
        for (const auto& n : constants_at_bound(in_step, cv)) w.value(n);
        w.end_array();
        w.end_object();
    };
    return write_json([&](json_writer& w) {
        w.begin_object();
        w.field("schema", "tslab/fit@1").field("source", source);
        w.key("fits").begin_array();
        write(w, "", all.in_step, all.gpu_speed_cv);
        for (const auto& f : refits) write(w, f.family, f.in_step, f.gpu_speed_cv);
        w.end_array();
        w.end_object();
    });
}

namespace {

struct tally {
    std::int64_t n = 0;
    double sum = 0, max = 0, cv_sum = 0, cv_max = 0;
    std::string max_row, cv_max_row;
    void add(const accuracy_row& a) {
        ++n;
        sum += std::abs(a.error), cv_sum += std::abs(a.cv_error);
        if (std::abs(a.error) > max) max = std::abs(a.error), max_row = a.id;
        if (std::abs(a.cv_error) > cv_max) cv_max = std::abs(a.cv_error), cv_max_row = a.id;
    }
    double mean() const { return n > 0 ? sum / static_cast<double>(n) : 0; }
    double cv_mean() const { return n > 0 ? cv_sum / static_cast<double>(n) : 0; }
};

accuracy_family family_summary(const accuracy_report& r, const std::string& family) {
    accuracy_family out;
    out.family = family;
    tally t;
    for (const auto& a : r.rows) {
        if (a.family != family) continue;
        out.fitted = out.fitted || a.fitted;
        if (a.outside_mean.empty()) t.add(a);
    }
    out.runs = t.n;
    out.mean_abs_error = t.mean(), out.max_abs_error = t.max, out.cv_mean_abs_error = t.cv_mean(), out.cv_max_abs_error = t.cv_max;
    const family_fit* f = stored_family_fit(family);
    if (f) out.in_step = f->in_step, out.gpu_speed_cv = f->gpu_speed_cv, out.at_bound = constants_at_bound(f->in_step, f->gpu_speed_cv);
    return out;
}

}  // namespace

void summarise_accuracy(accuracy_report& r) {
    tally t;
    for (const auto& a : r.rows)
        if (a.outside_mean.empty()) t.add(a);
    const std::vector<std::string> families = families_of(r.rows, [](const accuracy_row& a) -> const accuracy_row& { return a; });
    r.counted = t.n;
    r.mean_abs_error = t.mean(), r.max_abs_error = t.max, r.max_row = t.max_row;
    r.cv_mean_abs_error = t.cv_mean(), r.cv_max_abs_error = t.cv_max, r.cv_max_row = t.cv_max_row;
    r.families.clear();
    for (const auto& f : families) r.families.push_back(family_summary(r, f));
}

accuracy_report predict_validation_set(const json& doc, const std::string& source) {
    accuracy_report r;
    r.source = source;
    for (auto& c : parse_validation_cases(doc)) {
        c.row.predicted = predict_case(c, c.input);
        c.row.error = c.row.predicted / c.row.published - 1;
        cross_validate_row(c);
        r.rows.push_back(c.row);
    }
    summarise_accuracy(r);
    return r;
}

accuracy_report predict_validation_text(const std::string& text, const std::string& source) {
    return predict_validation_set(validation_doc(text, source), source);
}

}  // namespace tslab
