// The seed's probes in each shader stage (Da Graça 2006 tested vertex and fragment processors
// apart): TEST 2, 3, 5, 6, the multiply-add of TEST 4, TEST 9 and denormals, asked through the
// float machine (machine.h) in the compute, vertex and fragment stages, and where they differ.
#pragma once
#include "compute/floatlab/machine.h"

#include <string>
#include <vector>

namespace floatlab {

struct StageProbe {
  std::string test, question, ieee;
  std::vector<std::string> found;  // one a stage, in the order asked
  bool stages_agree() const;
};

std::vector<StageProbe> stage_probes(FloatMachine& m, const std::vector<Stage>& stages, uint32_t random_pairs = 4096,
                                     uint32_t seed = 1);

}  // namespace floatlab
