// Fuzz target: a bitmap index (.lbx) as a value query reads it (fuzz/index_decode.hpp). Its
// checksums stop most mutations before the Roaring bytes; fuzz/bitmap_rows.cpp reaches those.
#include "fuzz/fuzz_target.hpp"
#include "fuzz/index_decode.hpp"

LODEX_FUZZ_TARGET(lodex::fuzz::decode_whole_index)
