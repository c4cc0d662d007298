// The presets document as text, shared by the CLI and the wasm facade.
#include "tslab/presets.hpp"
#include "tslab/report.hpp"

namespace tslab {

std::string presets_json_text() { return presets_json().dump(2); }

}  // namespace tslab
