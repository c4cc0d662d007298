// CPU backend memory probe: host memcpy bandwidth over rotated buffers, all ranks at once.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "control.hpp"
#include "faults.hpp"
#include "probes.hpp"

namespace tslab::calibrate {

void probe_host_memcpy(world& w, const options& o, recorder& rec) {
    const std::vector<std::int64_t> sizes =
        o.quick ? std::vector<std::int64_t>{4LL << 20, 16LL << 20} : std::vector<std::int64_t>{1LL << 20, 4LL << 20, 16LL << 20, 64LL << 20};
    if (w.rank == 0) std::fputs(probe_header("memcpy: host to host, all ranks at once, timer steady_clock").c_str(), stdout);
    for (std::int64_t bytes : sizes) {
        if (stopper().agreed(w)) return;
        point_begin(fmt::format("memcpy {} B", bytes));
        inject_fault(w.rank, "memory");
        const int k = rotations_for(bytes);
        std::vector<std::vector<char>> src(static_cast<std::size_t>(k), std::vector<char>(static_cast<std::size_t>(bytes), 1));
        std::vector<std::vector<char>> dst(static_cast<std::size_t>(k), std::vector<char>(static_cast<std::size_t>(bytes), 0));
        auto once = [&](int iters) {
            w.barrier();
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < iters; ++i)
                std::memcpy(dst[static_cast<std::size_t>(i % k)].data(), src[static_cast<std::size_t>(i % k)].data(),
                            static_cast<std::size_t>(bytes));
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
        };
        if (o.warmup > 0) once(o.warmup);
        const timing t = measure(w, o.repeats, 3, [&] { return once(o.iters); });  // all ranks copy at once: the slowest
        point_end();
        if (t.stopped) return;
        const double bps = static_cast<double>(bytes) / t.median_s;
        if (w.rank == 0) {
            std::fputs(probe_row("memcpy", bytes, t, bps).c_str(), stdout);
            rec.add_memory({"memcpy", bytes, t.median_s, bps});
        }
    }
}

}  // namespace tslab::calibrate
