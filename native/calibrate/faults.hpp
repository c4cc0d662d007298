// Fault injection for the tests: TSLAB_CALIBRATE_FAULT="rank=R,at=PROBE,kind=KIND" makes rank R
// fail when it starts probe PROBE (an op name such as "allgather", or "memory").
#pragma once

#include <string>

namespace tslab::calibrate {

// KIND: "error" throws (exit 70 after the stop protocol), "hang" never returns from the point
// (the -T watchdog must catch it), "sigint" raises SIGINT on that rank only, "abort" kills the
// process without a word (the launcher then tears the job down). Throws input_error for a
// malformed variable. No effect when the variable is unset.
void inject_fault(int rank, const std::string& probe);
// Parses the variable now (setup), so a malformed one stops the run before it measures.
void check_fault_variable();

}  // namespace tslab::calibrate
