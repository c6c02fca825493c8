#pragma once
// perfgate's JSON value: nlohmann::json, whose objects keep keys sorted, so every
// document we write has a deterministic key order.
#include <nlohmann/json.hpp>

namespace perfgate {
using Json = nlohmann::json;
}
