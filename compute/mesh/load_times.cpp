// A mesh's opening, phase by phase (load_times.h).
#include "compute/mesh/load_times.h"

#include <cstdio>

namespace mesh {

std::string LoadTimes::text() const {
  char part[96];
  std::snprintf(part, sizeof part, "opened in %.2f s, the first launch at %.2f s:", total(), first_launch_);
  std::string out = part;
  for (size_t i = 0; i < phases_.size(); ++i) {
    std::snprintf(part, sizeof part, "%s %s %.2f s", i ? "," : "", phases_[i].first.c_str(), phases_[i].second);
    out += part;
  }
  return out;
}

}  // namespace mesh
