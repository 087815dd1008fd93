// SIMSURF §13.1.2 (Abecassis 2012): before a CPU benchmark's run the report empties the CPU's
// caches "by a memory copy of very large extent" (64 MiB), so that no run starts with the
// simulation's data already in cache; the CPU rows of the machining bench do the same.
#pragma once
#include <cstddef>

namespace gpu {

// Copies 64 MiB from one buffer to another (both kept), as the report's flush_cache() does;
// returns the bytes copied.
size_t flush_cpu_caches();

}  // namespace gpu
