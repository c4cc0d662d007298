// Names of the vocabulary enums, read from their rows (vocabulary.hpp).
#include "tslab/vocabulary.hpp"

namespace tslab {

const char* to_string(dtype t) { return describe(t).name; }
const char* to_string(recompute_kind r) { return describe(r).name; }
const char* to_string(optimizer_kind o) { return describe(o).name; }
std::int64_t dtype_bytes(dtype t) { return describe(t).bytes; }

}  // namespace tslab
