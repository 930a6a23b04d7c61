// Fuzz target: the dataset manifest (manifest.json), parsed and validated strictly.
#include <string_view>

#include "format/manifest.hpp"
#include "fuzz/fuzz_target.hpp"

namespace {

void one_input(const uint8_t* data, size_t size) {
  lodex::decode_manifest(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz/manifest.json");
}

}  // namespace

LODEX_FUZZ_TARGET(one_input)
