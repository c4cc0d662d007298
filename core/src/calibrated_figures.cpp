// The figures a calibration profile replaces (calibrated_figures.hpp).
#include "tslab/calibrated_figures.hpp"

#include <algorithm>

namespace tslab {

calibrated_figures figures_from_profile(const calibration_profile& p) {
    calibrated_figures f;
    f.intra_node = link_from_profile(p, link_scope::intra);
    f.inter_node = link_from_profile(p, link_scope::inter);
    if (p.memory.device_copy_Bps > 0) f.hbm_bandwidth_Bps = 2.0 * p.memory.device_copy_Bps;
    const double h2d = p.memory.host_to_device_Bps, d2h = p.memory.device_to_host_Bps;
    if (h2d > 0 && d2h > 0) f.host_bandwidth_Bps = std::min(h2d, d2h);
    for (const auto& c : p.gemm.curves)
        if (c.flops_per_s_max > 0) f.gemm_dtypes.push_back(c.dtype);
    return f;
}

}  // namespace tslab
