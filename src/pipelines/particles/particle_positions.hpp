// One rank's positions of a step against its group's domain and its own patch, checked once, in
// the write's check phase:
//   - finite, and inside a fixed domain on its non-periodic axes (the maximum inclusive); else
//     InvalidArgument saying how many particles are outside, the farthest and by how much, and
//     the ways out (periodic axes, an automatic domain, a larger domain);
//   - on periodic axes, wrapped into [min, max): the caller's arrays are never changed, so the
//     wrapped positions are a copy in `wrapped`, which the step's input then reads;
//   - inside the rank's patch: a factor partition needs it (its patches make the files' boxes);
//     the other partitions take a patch as a hint, grown to hold particles outside it.
// The fast path is one pass for the bounds: the slower ones run only when the bounds leave the
// domain or the patch.
#pragma once

#include <cstdint>
#include <optional>

#include "core/box.hpp"
#include "core/scratch_buffer.hpp"
#include "format/manifest.hpp"
#include "pipelines/particles/particle_input.hpp"

namespace lodex {

struct CheckedPositions {
  Box patch{};              // this rank's patch in the plan (empty when it has no particles and gave none)
  Box bounds = Box::nothing();   // inclusive min and max of its (wrapped) positions
  bool patch_given = false;
  uint64_t wrapped = 0;     // particles moved into the domain on periodic axes
};

CheckedPositions check_positions(StepInput& in, const ParticleGroupMeta& g, const std::optional<Box>& patch,
                                 ScratchBuffer& wrapped);

// The domain of a step of an "auto" group: the union of the ranks' given patches and the
// inclusive bounds of their particles (its maximum inclusive, as a fixed domain's); a flat axis
// gets a thin extent, and a step without any particle or patch the group's extent so far (else
// the unit box).
Box auto_step_domain(std::span<const Box> boxes, const Box& extent_so_far);
// A patch kept inside a domain: their common part, at least one double thick on each axis (a
// patch made of bounds reaches one double past their maximum, which may be the domain's).
Box kept_inside(const Box& patch, const Box& domain);

}  // namespace lodex
