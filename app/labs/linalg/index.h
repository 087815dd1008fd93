// The linear algebra lab's panel on the thesis's index arithmetic (Bleton 2005, §3.3.4,
// formulas 3.1-3.4): sweeps vector sizes on the GPU and shows where the float modulo names
// the wrong quad. The math: compute/linalg/frac_index.
#pragma once
#include "compute/linalg/frac_index.h"

namespace linalg {

class FracIndexPanel {
 public:
  void ui(gpu::Context& ctx);

 private:
  FracSummary summary_;
  bool ran_ = false;
};

}  // namespace linalg
