// Everything a run decides before its first probe, agreed by every rank: flags, backend, scenario
// shapes, sizes, memory, a hash of all of it, and a writable --out.
#pragma once

#include <cstdint>
#include <vector>

#include "probes.hpp"

namespace tslab::calibrate {

struct run_plan {
    options o;
    device_identity device;
    workload wl;
    std::vector<std::int64_t> sizes;
};

// Returns -1 after --help/--version (printed on rank 0), 0 when every rank is ready, else the
// exit code: each rank that failed printed its own error with its rank and host, and the ranks
// that disagree on what they would measure (flags, the scenario file's content, the sizes and
// shapes derived from them) say so before anything is measured.
int prepare_run(world& w, int argc, char** argv, run_plan& plan);

}  // namespace tslab::calibrate
