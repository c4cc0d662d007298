// Byte units the core prints (tables, sentences): GiB = 2^30 B beside SI GB = 10^9 B (README: both named).
#pragma once

namespace tslab {

inline constexpr double gib_bytes = 1024.0 * 1024.0 * 1024.0;

}  // namespace tslab
