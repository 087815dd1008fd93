#include "compute/measure/cpu_cache.h"

#include <cstring>
#include <vector>

namespace gpu {

size_t flush_cpu_caches() {
  constexpr size_t kBytes = size_t(1) << 26;  // the report's length
  static std::vector<char> input(kBytes, 1), output(kBytes);
  std::memcpy(output.data(), input.data(), kBytes);
  input[output[kBytes / 2] & 1] ^= 1;  // a use of the copy the compiler cannot drop
  return kBytes;
}

}  // namespace gpu
