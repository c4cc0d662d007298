// The JSON type every layer speaks (nlohmann's ordered_json: fields keep their order), and nothing else.
#pragma once

#include <nlohmann/json.hpp>

namespace tslab {

using json = nlohmann::ordered_json;

}  // namespace tslab
