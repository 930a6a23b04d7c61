// lodex C++ API: the whole of it. Header-only over the C API (<lodex.h>, liblodex.so): link
// lodex::lodex (CMake) or -llodex. Classes release the C handles they own on destruction,
// group handles are borrowed from their Dataset, and every failed call throws lodex::Error.
//
//   lodex::Dataset ds = lodex::Dataset::create("run.lodex", MPI_COMM_WORLD);       // collective
//   lodex::ParticleGroup g = ds.define_particles(
//       "particles", {{"position", lodex::DType::kF8, 3}, {"mass", lodex::DType::kF8}},
//       lodex::Box{{0, 0, 0}, {1, 1, 1}}, lodex::Partition::factor(2, 2, 2));
//   g.write(0, {lodex::field("position", pos, 3), lodex::field("mass", mass)}, my_patch);
//   ds.close();
//
//   lodex::Dataset in = lodex::Dataset::open("run.lodex");                         // one process
//   lodex::Columns c = in.particles("particles").read(0);
//   lodex::Span<const double> m = c.column("mass").values<double>();
#pragma once

#include <lodex.h>
#include <lodex/dataset.hpp>
#include <lodex/error.hpp>
#include <lodex/grid.hpp>
#include <lodex/particles.hpp>
#include <lodex/series.hpp>
